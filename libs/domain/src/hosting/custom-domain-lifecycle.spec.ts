import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import type { CustomDomainStatus } from './custom-domain.entity.js';
import { IllegalDomainTransition, canMove, markActive, markCertificateIssued, markDnsMissing, markFailed, markVerified, newCustomDomain } from './custom-domain-lifecycle.js';

const t = (m: number) => new Date(Date.UTC(2026, 0, 1, 0, m));
const fresh = () => newCustomDomain({ id: 'd1', projectId: 'p1', host: 'shop.example.com', verificationToken: 'kiln-verify-x' }, t(0));

describe('the life of a custom domain', () => {
  it('pending → verified → certificate_issued → active, each step stamped', () => {
    const active = markActive(markCertificateIssued(markVerified(fresh(), t(1)), t(2)), t(3));
    expect(active).toMatchObject({ status: 'active', failureReason: null, updatedAt: t(3), createdAt: t(0) });
  });

  it('fails with a reason from any step before active, and is verified again from failed', () => {
    const failed = markFailed(markVerified(fresh(), t(1)), 'no certificate', t(2));
    expect(failed).toMatchObject({ status: 'failed', failureReason: 'no certificate' });
    expect(markVerified(failed, t(3))).toMatchObject({ status: 'verified', failureReason: null });
  });

  it('refuses every other move (an active domain never fails back, nothing skips a step)', () => {
    const statuses: CustomDomainStatus[] = ['pending', 'verified', 'certificate_issued', 'active', 'failed'];
    const step = { verified: markVerified, certificate_issued: markCertificateIssued, active: markActive } as const;
    fc.assert(
      fc.property(fc.constantFrom(...statuses), fc.constantFrom(...statuses), (from, to) => {
        const domain = { ...fresh(), status: from };
        const move = () => (to === 'failed' ? markFailed(domain, 'x', t(1)) : to === 'pending' ? null : step[to](domain, t(1)));
        if (to === 'pending') expect(canMove(from, to)).toBe(false);
        else if (canMove(from, to)) expect(move()?.status).toBe(to);
        else expect(move).toThrow(IllegalDomainTransition);
      }),
    );
    expect(canMove('active', 'failed')).toBe(false);
    expect(canMove('pending', 'active')).toBe(false);
  });

  it('DNS not found yet: a pending domain keeps waiting with the reason; a failed one stays failed', () => {
    const domain = fresh();
    const waiting = markDnsMissing(domain, 'no TXT yet', t(1));
    expect(waiting).toMatchObject({ status: 'pending', failureReason: 'no TXT yet' });
    expect(markDnsMissing(markFailed(domain, 'no certificate', t(1)), 'no TXT', t(2))).toMatchObject({ status: 'failed', failureReason: 'no TXT' });
  });
});
