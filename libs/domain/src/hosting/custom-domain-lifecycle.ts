import { CHALLENGE_LABEL, type CustomDomain, type CustomDomainStatus, type DnsRecordToCreate } from './custom-domain.entity.js';
import { isApex } from './domain-name.js';
import type { PublishedUrls } from './published-urls.js';

/** Letters and digits of a verification token (lower-case: DNS tools show TXT values as typed). */
const TOKEN_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
export const VERIFICATION_TOKEN_LENGTH = 32;

/** A verification token from a random source (`nextInt`): 32 characters, about 165 bits. */
export function verificationToken(random: { nextInt(maxExclusive: number): number }): string {
  let token = '';
  for (let i = 0; i < VERIFICATION_TOKEN_LENGTH; i += 1) token += TOKEN_ALPHABET[random.nextInt(TOKEN_ALPHABET.length)];
  return `kiln-verify-${token}`;
}

export function newCustomDomain(input: { id: string; projectId: string; host: string; verificationToken: string }, now: Date): CustomDomain {
  return Object.freeze({ ...input, status: 'pending', failureReason: null, createdAt: now, updatedAt: now });
}

/** Thrown for a transition the life of a domain does not have: a bug in the caller. */
export class IllegalDomainTransition extends Error {
  constructor(from: CustomDomainStatus, to: CustomDomainStatus) {
    super(`A custom domain cannot go from ${from} to ${to}`);
    this.name = 'IllegalDomainTransition';
  }
}

const FROM: Readonly<Record<Exclude<CustomDomainStatus, 'pending'>, readonly CustomDomainStatus[]>> = {
  verified: ['pending', 'failed'],
  certificate_issued: ['verified'],
  active: ['certificate_issued'],
  failed: ['pending', 'verified', 'certificate_issued', 'failed'],
};

/** Whether `to` may follow `from`: pending → verified → certificate_issued → active; failed from any step before active; verified again from failed. */
export const canMove = (from: CustomDomainStatus, to: CustomDomainStatus): boolean => to !== 'pending' && FROM[to].includes(from);

function move(domain: CustomDomain, to: Exclude<CustomDomainStatus, 'pending'>, now: Date, failureReason: string | null = null): CustomDomain {
  if (!canMove(domain.status, to)) throw new IllegalDomainTransition(domain.status, to);
  return Object.freeze({ ...domain, status: to, failureReason, updatedAt: now });
}

/** DNS shows the token and the target. */
export const markVerified = (d: CustomDomain, now: Date): CustomDomain => move(d, 'verified', now);
/** The edge holds a certificate for the host (or needs none). */
export const markCertificateIssued = (d: CustomDomain, now: Date): CustomDomain => move(d, 'certificate_issued', now);
/** The site answers on the host. */
export const markActive = (d: CustomDomain, now: Date): CustomDomain => move(d, 'active', now);
/** A step failed; `reason` is shown to the person. */
export const markFailed = (d: CustomDomain, reason: string, now: Date): CustomDomain => move(d, 'failed', now, reason);

/**
 * A check that did not find the DNS records yet: a pending domain keeps waiting (DNS takes time
 * to reach everyone), with what was missing as its reason; any other goes to failed.
 */
export const markDnsMissing = (d: CustomDomain, reason: string, now: Date): CustomDomain =>
  d.status === 'pending' ? Object.freeze({ ...d, failureReason: reason, updatedAt: now }) : markFailed(d, reason, now);

/** Statuses in which Kiln's TLS edge may ask for a certificate for the host (the ask endpoint). */
export const TLS_ALLOWED_STATUSES: ReadonlySet<CustomDomainStatus> = new Set(['verified', 'certificate_issued', 'active']);

const isIpv6 = (address: string): boolean => address.includes(':');

/**
 * The records a person creates for a custom domain: the TXT token at `_kiln-challenge.<host>`,
 * then a CNAME to Kiln's target — or, at an apex (isApex), A/AAAA records to its addresses.
 */
export function dnsRecordsFor(domain: Pick<CustomDomain, 'host' | 'verificationToken'>, target: PublishedUrls['target']): DnsRecordToCreate[] {
  const records: DnsRecordToCreate[] = [{ type: 'TXT', name: `${CHALLENGE_LABEL}.${domain.host}`, value: domain.verificationToken }];
  if (!isApex(domain.host)) records.push({ type: 'CNAME', name: domain.host, value: target.cname });
  else for (const address of target.addresses) records.push({ type: isIpv6(address) ? 'AAAA' : 'A', name: domain.host, value: address });
  return records;
}
