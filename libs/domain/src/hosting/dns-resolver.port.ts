/**
 * Reads public DNS records (custom-domain verification). A name with no such record answers an
 * empty list; a resolver that cannot answer (timeout, SERVFAIL, no server) rejects with
 * DnsUnavailable.
 */
export interface DnsResolver {
  /** TXT records of a name, each record's strings joined. */
  resolveTxt(name: string): Promise<readonly string[]>;
  /** CNAME targets of a name, lower-case, without the trailing dot. */
  resolveCname(name: string): Promise<readonly string[]>;
  /** A and AAAA addresses of a name. */
  resolveAddresses(name: string): Promise<readonly string[]>;
}

/** Thrown by a DnsResolver that could not get an answer (the API answers 503). */
export class DnsUnavailable extends Error {
  readonly code = 'HOSTING.DNS_UNAVAILABLE';
  constructor(readonly reason: string) {
    super(`DNS lookup failed: ${reason}`);
    this.name = 'DnsUnavailable';
  }
}
