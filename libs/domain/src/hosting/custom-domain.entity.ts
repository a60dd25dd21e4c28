/**
 * A person's own host name for a published site. Its life:
 * pending → verified (DNS shows the TXT token and the target) → certificate_issued → active,
 * or failed (with a reason) from any step before active; a failed one may be verified again.
 */
export type CustomDomainStatus = 'pending' | 'verified' | 'certificate_issued' | 'active' | 'failed';

export interface CustomDomain {
  readonly id: string;
  readonly projectId: string;
  /** Lower-case ASCII (IDN as punycode), no trailing dot. */
  readonly host: string;
  /** The value people put in the TXT record `_kiln-challenge.<host>`. */
  readonly verificationToken: string;
  readonly status: CustomDomainStatus;
  /** Why the last verification or certificate step failed, in words safe to show. */
  readonly failureReason: string | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** The TXT record name that proves control of a host. */
export const CHALLENGE_LABEL = '_kiln-challenge';

/** A DNS record people are asked to create for a custom domain. */
export interface DnsRecordToCreate {
  readonly type: 'TXT' | 'CNAME' | 'A' | 'AAAA';
  /** Fully qualified, lower-case, no trailing dot. */
  readonly name: string;
  readonly value: string;
}
