import { describe, expect, it } from '@jest/globals';
import { signIn, signUpConfirmed } from '../testing/auth/auth-test-kit.js';
import { type MfaTestKit, createMfaTestKit } from '../testing/mfa/mfa-test-kit.js';
import { secondFactorRequired } from '../auth/access-token.port.js';
import { MFA_CHALLENGE_TTL_SECONDS } from './mfa.constants.js';
import { SecondFactorGate } from './second-factor-gate.js';

const EMAIL = 'ada@example.com';

async function signedUp() {
  const kit = createMfaTestKit();
  const session = await signUpConfirmed(kit, EMAIL);
  return { kit, session };
}

async function enroll(kit: MfaTestKit, userId: string, aal: 'aal1' | 'aal2' = 'aal1', friendlyName?: string) {
  const enrolled = await kit.mfa.enroll.execute({ userId, aal, factorType: 'totp', ...(friendlyName ? { friendlyName } : {}) });
  if (!enrolled.ok) throw new Error(enrolled.error.message);
  return enrolled.value;
}

async function challenge(kit: MfaTestKit, userId: string, factorId: string) {
  const issued = await kit.mfa.challenge.execute({ userId, factorId });
  if (!issued.ok) throw new Error(issued.error.message);
  return issued.value.challenge.id;
}

/** Enrols and verifies a factor; answers it and the aal2 session. */
async function withVerifiedFactor() {
  const { kit, session } = await signedUp();
  const enrolled = await enroll(kit, session.user.id);
  const verified = await kit.mfa.verify.execute({
    userId: session.user.id,
    sessionId: session.sessionId,
    factorId: enrolled.factor.id,
    challengeId: await challenge(kit, session.user.id, enrolled.factor.id),
    code: kit.codeNow(enrolled.secret),
  });
  if (!verified.ok) throw new Error(verified.error.message);
  return { kit, enrolled, first: session, aal2: verified.value };
}

describe('EnrollFactor', () => {
  it('makes an unverified TOTP factor with a 160-bit base32 secret, its otpauth URI and a QR code of it', async () => {
    const { kit, session } = await signedUp();
    const enrolled = await enroll(kit, session.user.id, 'aal1', 'Phone');
    expect(enrolled.factor).toMatchObject({ userId: session.user.id, friendlyName: 'Phone', factorType: 'totp', status: 'unverified', lastUsedStep: null });
    expect(enrolled.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(enrolled.uri).toBe(`otpauth://totp/Kiln:ada%40example.com?algorithm=SHA1&digits=6&issuer=Kiln&period=30&secret=${enrolled.secret}`);
    expect(kit.qr.drawn).toEqual([enrolled.uri]);
    expect(enrolled.qrSvg).toContain('<svg');
  });

  it('gives each enrolment a different secret', async () => {
    const { kit, session } = await signedUp();
    const one = await enroll(kit, session.user.id);
    const two = await enroll(kit, session.user.id);
    expect(one.secret).not.toBe(two.secret);
  });

  it('replaces an abandoned (unverified) enrolment instead of piling them up', async () => {
    const { kit, session } = await signedUp();
    await enroll(kit, session.user.id);
    const second = await enroll(kit, session.user.id);
    expect((await kit.mfa.list.execute({ userId: session.user.id })).map((f) => f.id)).toEqual([second.factor.id]);
  });

  it('refuses other factor types and over-long names', async () => {
    const { kit, session } = await signedUp();
    const phone = await kit.mfa.enroll.execute({ userId: session.user.id, aal: 'aal1', factorType: 'phone' });
    expect(phone.ok ? null : phone.error.code).toBe('MFA.VALIDATION_FAILED');
    const long = await kit.mfa.enroll.execute({ userId: session.user.id, aal: 'aal1', factorType: 'totp', friendlyName: 'x'.repeat(101) });
    expect(long.ok ? null : long.error.code).toBe('MFA.VALIDATION_FAILED');
  });

  it('needs an aal2 session once a verified factor exists; with one, another factor may be added', async () => {
    const { kit, first } = await withVerifiedFactor();
    const fromAal1 = await kit.mfa.enroll.execute({ userId: first.user.id, aal: 'aal1', factorType: 'totp' });
    expect(fromAal1.ok ? null : fromAal1.error).toEqual({ code: 'MFA.INSUFFICIENT_AAL', message: 'AAL2 required to enroll a new factor' });
    const second = await enroll(kit, first.user.id, 'aal2', 'Work phone');
    expect(second.factor.friendlyName).toBe('Work phone');
  });
});

describe('VerifyFactor', () => {
  it('verifies the factor and swaps the aal1 session for an aal2 one whose amr keeps the first method', async () => {
    const { kit, enrolled, first, aal2 } = await withVerifiedFactor();
    expect((await kit.factors.findById(enrolled.factor.id))?.status).toBe('verified');
    const session = await kit.sessions.findById(aal2.sessionId);
    expect(session?.aal).toBe('aal2');
    expect(session?.amr.map((entry) => entry.method)).toEqual(['totp', 'email/signup']);
    const claims = await kit.auth.verifier.verify(aal2.accessToken);
    expect(claims.ok && claims.value.aal).toBe('aal2');
    // The aal1 session is over: its access token no longer works.
    expect((await kit.auth.verifier.verify(first.accessToken)).ok).toBe(false);
  });

  it('answers a wrong code with "Invalid TOTP code entered" and leaves the factor unverified', async () => {
    const { kit, session } = await signedUp();
    const enrolled = await enroll(kit, session.user.id);
    const wrong = kit.codeNow(enrolled.secret) === '000000' ? '111111' : '000000';
    const result = await kit.mfa.verify.execute({
      userId: session.user.id,
      sessionId: session.sessionId,
      factorId: enrolled.factor.id,
      challengeId: await challenge(kit, session.user.id, enrolled.factor.id),
      code: wrong,
    });
    expect(result.ok ? null : result.error).toEqual({ code: 'MFA.VERIFICATION_FAILED', message: 'Invalid TOTP code entered' });
    expect((await kit.factors.findById(enrolled.factor.id))?.status).toBe('unverified');
  });

  it('refuses a code that was already used, even on a new challenge within the same 30 seconds', async () => {
    const { kit, enrolled, first } = await withVerifiedFactor();
    const again = await signIn(kit, EMAIL);
    const replay = await kit.mfa.verify.execute({
      userId: first.user.id,
      sessionId: again.sessionId,
      factorId: enrolled.factor.id,
      challengeId: await challenge(kit, first.user.id, enrolled.factor.id),
      code: kit.codeNow(enrolled.secret),
    });
    expect(replay.ok ? null : replay.error.code).toBe('MFA.VERIFICATION_FAILED');
    kit.clock.advance(30_000);
    const next = await kit.mfa.verify.execute({
      userId: first.user.id,
      sessionId: again.sessionId,
      factorId: enrolled.factor.id,
      challengeId: await challenge(kit, first.user.id, enrolled.factor.id),
      code: kit.codeNow(enrolled.secret),
    });
    expect(next.ok).toBe(true);
  });

  it('accepts the code of the previous or next step (clock drift), not two steps away', async () => {
    for (const [steps, ok] of [[-1, true], [1, true], [-2, false], [2, false]] as const) {
      const { kit, session } = await signedUp();
      const enrolled = await enroll(kit, session.user.id);
      const result = await kit.mfa.verify.execute({
        userId: session.user.id,
        sessionId: session.sessionId,
        factorId: enrolled.factor.id,
        challengeId: await challenge(kit, session.user.id, enrolled.factor.id),
        code: kit.codeNow(enrolled.secret, steps),
      });
      expect([steps, result.ok]).toEqual([steps, ok]);
    }
  });

  it('refuses an expired challenge and a challenge answered before', async () => {
    const { kit, session } = await signedUp();
    const enrolled = await enroll(kit, session.user.id);
    const stale = await challenge(kit, session.user.id, enrolled.factor.id);
    kit.clock.advance(MFA_CHALLENGE_TTL_SECONDS * 1000 + 1000);
    const expired = await kit.mfa.verify.execute({
      userId: session.user.id,
      sessionId: session.sessionId,
      factorId: enrolled.factor.id,
      challengeId: stale,
      code: kit.codeNow(enrolled.secret),
    });
    expect(expired.ok ? null : expired.error.code).toBe('MFA.CHALLENGE_EXPIRED');

    const fresh = await challenge(kit, session.user.id, enrolled.factor.id);
    const input = { userId: session.user.id, sessionId: session.sessionId, factorId: enrolled.factor.id, challengeId: fresh };
    expect((await kit.mfa.verify.execute({ ...input, code: kit.codeNow(enrolled.secret) })).ok).toBe(true);
    kit.clock.advance(30_000);
    const reused = await kit.mfa.verify.execute({ ...input, code: kit.codeNow(enrolled.secret) });
    expect(reused.ok ? null : reused.error.code).toBe('MFA.VERIFICATION_FAILED');
  });

  it("never touches another person's factor", async () => {
    const { kit, enrolled } = await withVerifiedFactor();
    const mallory = await signUpConfirmed(kit, 'mallory@example.com');
    const asked = await kit.mfa.challenge.execute({ userId: mallory.user.id, factorId: enrolled.factor.id });
    expect(asked.ok ? null : asked.error.code).toBe('MFA.FACTOR_NOT_FOUND');
    const removed = await kit.mfa.unenroll.execute({ userId: mallory.user.id, aal: 'aal2', factorId: enrolled.factor.id });
    expect(removed.ok ? null : removed.error.code).toBe('MFA.FACTOR_NOT_FOUND');
  });
});

describe('UnenrollFactor', () => {
  it('needs aal2 to remove a verified factor; with it the factor is gone', async () => {
    const { kit, enrolled, first } = await withVerifiedFactor();
    const fromAal1 = await kit.mfa.unenroll.execute({ userId: first.user.id, aal: 'aal1', factorId: enrolled.factor.id });
    expect(fromAal1.ok ? null : fromAal1.error).toEqual({ code: 'MFA.INSUFFICIENT_AAL', message: 'AAL2 required to unenroll verified factor' });
    expect(await kit.mfa.unenroll.execute({ userId: first.user.id, aal: 'aal2', factorId: enrolled.factor.id })).toEqual({ ok: true, value: { id: enrolled.factor.id } });
    expect(await kit.mfa.list.execute({ userId: first.user.id })).toEqual([]);
  });

  it('removes an unverified factor from an aal1 session', async () => {
    const { kit, session } = await signedUp();
    const enrolled = await enroll(kit, session.user.id);
    expect((await kit.mfa.unenroll.execute({ userId: session.user.id, aal: 'aal1', factorId: enrolled.factor.id })).ok).toBe(true);
  });
});

describe('SecondFactorGate', () => {
  it('refuses an aal1 token of an account with a verified factor, and lets aal2 and factor-less accounts through', async () => {
    const { kit, aal2 } = await withVerifiedFactor();
    const gate = new SecondFactorGate(kit.auth.verifier, kit.factors);
    const passwordOnly = await signIn(kit, EMAIL);
    expect(await gate.verify(passwordOnly.accessToken)).toEqual({ ok: false, error: secondFactorRequired() });
    expect((await gate.verify(aal2.accessToken)).ok).toBe(true);
    const plain = await signUpConfirmed(kit, 'plain@example.com');
    expect((await gate.verify(plain.accessToken)).ok).toBe(true);
    // An unverified (abandoned) enrolment does not lock anyone out.
    await enroll(kit, plain.user.id);
    expect((await gate.verify(plain.accessToken)).ok).toBe(true);
    expect((await gate.verify('not-a-token')).ok).toBe(false);
  });
});

describe('CheckCredentialChange', () => {
  it('needs aal2 to change the email or password of an account with a verified factor', async () => {
    const { kit, first, aal2 } = await withVerifiedFactor();
    const passwordOnly = await signIn(kit, EMAIL);
    const check = (input: { sessionId: string; aal: 'aal1' | 'aal2'; changesEmail: boolean; changesPassword: boolean }) =>
      kit.mfa.checkCredentialChange.execute({ userId: first.user.id, ...input });
    const refused = await check({ sessionId: passwordOnly.sessionId, aal: 'aal1', changesEmail: true, changesPassword: false });
    expect(refused.ok ? null : refused.error.code).toBe('MFA.INSUFFICIENT_AAL');
    expect((await check({ sessionId: passwordOnly.sessionId, aal: 'aal1', changesEmail: false, changesPassword: true })).ok).toBe(false);
    expect((await check({ sessionId: passwordOnly.sessionId, aal: 'aal1', changesEmail: false, changesPassword: false })).ok).toBe(true);
    expect((await check({ sessionId: aal2.sessionId, aal: 'aal2', changesEmail: true, changesPassword: true })).ok).toBe(true);
  });

  it('lets a session started by a mailed recovery code set a new password, not a new address', async () => {
    const { kit, first } = await withVerifiedFactor();
    await kit.auth.recover.execute({ email: EMAIL });
    const recovered = await kit.auth.verifyOtp.execute({ type: 'recovery', email: EMAIL, token: kit.mailer.lastCode(EMAIL) ?? '' });
    if (!recovered.ok) throw new Error(recovered.error.message);
    const input = { userId: first.user.id, sessionId: recovered.value.sessionId, aal: 'aal1' as const };
    expect((await kit.mfa.checkCredentialChange.execute({ ...input, changesEmail: false, changesPassword: true })).ok).toBe(true);
    expect((await kit.mfa.checkCredentialChange.execute({ ...input, changesEmail: true, changesPassword: false })).ok).toBe(false);
  });

  it('asks nothing of accounts without a verified factor', async () => {
    const { kit, session } = await signedUp();
    await enroll(kit, session.user.id);
    const result = await kit.mfa.checkCredentialChange.execute({ userId: session.user.id, sessionId: session.sessionId, aal: 'aal1', changesEmail: true, changesPassword: true });
    expect(result.ok).toBe(true);
  });
});
