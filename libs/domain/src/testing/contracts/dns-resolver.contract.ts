import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type DnsResolver, DnsUnavailable } from '../../hosting/dns-resolver.port.js';

/** Publishes records where the resolver under test reads them (a fake DNS server, or memory). */
export interface DnsRecordsControl {
  setTxt(name: string, ...values: string[]): Promise<void>;
  setCname(name: string, target: string): Promise<void>;
  setA(name: string, ...addresses: string[]): Promise<void>;
  setAaaa(name: string, ...addresses: string[]): Promise<void>;
}

export interface DnsResolverHarness {
  readonly resolver: DnsResolver;
  readonly records: DnsRecordsControl;
  /** A resolver of the same kind whose server cannot answer (down, refusing). */
  readonly unavailable: DnsResolver;
  close?(): Promise<void>;
}

/**
 * The DnsResolver contract: what verification of a custom domain relies on. A missing name or
 * record type is an empty list (the person has not created it yet), never an error; a resolver
 * that cannot answer rejects with DnsUnavailable (the API's 503), never with an empty list that
 * would read as "your record is missing".
 */
export function dnsResolverContract(name: string, makeHarness: () => Promise<DnsResolverHarness>): void {
  describe(`DnsResolver contract: ${name}`, () => {
    let h: DnsResolverHarness;
    let zones = 0;
    /** A zone no other test has used: the fake server keeps its records for the whole run. */
    const zone = () => `z${(zones += 1)}-${name.toLowerCase().replace(/[^a-z0-9]/g, '')}.example.test`;

    beforeAll(async () => {
      h = await makeHarness();
    });
    afterAll(async () => {
      await h.close?.();
    });

    it('reads a TXT record back, and every value when there are several', async () => {
      const host = `_kiln-challenge.${zone()}`;
      await h.records.setTxt(host, 'kiln-verify=abc123');
      expect(await h.resolver.resolveTxt(host)).toEqual(['kiln-verify=abc123']);
      const other = `_kiln-challenge.${zone()}`;
      await h.records.setTxt(other, 'v=spf1 -all', 'kiln-verify=def456');
      expect([...(await h.resolver.resolveTxt(other))].sort()).toEqual(['kiln-verify=def456', 'v=spf1 -all']);
    });

    it('answers an empty list for a name or a record type that does not exist', async () => {
      const host = zone();
      expect(await h.resolver.resolveTxt(`_kiln-challenge.${host}`)).toEqual([]);
      expect(await h.resolver.resolveCname(`www.${host}`)).toEqual([]);
      expect(await h.resolver.resolveAddresses(`nothing.${host}`)).toEqual([]);
      await h.records.setA(host, '203.0.113.7');
      expect(await h.resolver.resolveTxt(host)).toEqual([]);
      expect(await h.resolver.resolveCname(host)).toEqual([]);
    });

    it('reads a CNAME target lower-case, without the trailing dot', async () => {
      const host = `www.${zone()}`;
      await h.records.setCname(host, 'Sites.Kiln.Test.');
      expect(await h.resolver.resolveCname(host)).toEqual(['sites.kiln.test']);
    });

    it('reads A and AAAA addresses together', async () => {
      const host = zone();
      await h.records.setA(host, '203.0.113.7', '203.0.113.8');
      await h.records.setAaaa(host, '2001:db8::7');
      expect([...(await h.resolver.resolveAddresses(host))].sort()).toEqual(['2001:db8::7', '203.0.113.7', '203.0.113.8']);
      const v4only = zone();
      await h.records.setA(v4only, '198.51.100.1');
      expect(await h.resolver.resolveAddresses(v4only)).toEqual(['198.51.100.1']);
    });

    it('treats names case-insensitively and ignores a trailing dot', async () => {
      const host = `_kiln-challenge.${zone()}`;
      await h.records.setTxt(host, 'token-1');
      expect(await h.resolver.resolveTxt(host.toUpperCase())).toEqual(['token-1']);
      expect(await h.resolver.resolveTxt(`${host}.`)).toEqual(['token-1']);
    });

    it('rejects with DnsUnavailable when the server cannot answer, for every kind of lookup', async () => {
      const host = zone();
      for (const lookup of [() => h.unavailable.resolveTxt(host), () => h.unavailable.resolveCname(host), () => h.unavailable.resolveAddresses(host)]) {
        const error = await lookup().then(
          () => null,
          (e: unknown) => e,
        );
        expect(error).toBeInstanceOf(DnsUnavailable);
        expect((error as DnsUnavailable).code).toBe('HOSTING.DNS_UNAVAILABLE');
      }
    });
  });
}
