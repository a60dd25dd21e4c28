import { createSocket } from 'node:dgram';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DnsUnavailable } from '@kiln/domain';
import { dnsResolverContract } from '@kiln/domain/contracts';
import { NodeDnsResolver, parseDnsServers } from './node-dns-resolver.adapter.js';
import { FakeDnsServer } from './testing/fake-dns.js';
import { freePort, requireBinaries } from './testing/test-processes.js';

dnsResolverContract('NodeDnsResolver against pebble-challtestsrv', async () => {
  requireBinaries('pebble-challtestsrv');
  const dns = await FakeDnsServer.start();
  // Nothing listens there: the kernel answers "port unreachable", as for a server that is down.
  const closed = await freePort();
  return {
    resolver: new NodeDnsResolver({ servers: [dns.address] }),
    records: dns,
    unavailable: new NodeDnsResolver({ servers: [`127.0.0.1:${closed}`] }),
    close: () => dns.stop(),
  };
});

describe('NodeDnsResolver', () => {
  let dns: FakeDnsServer;

  beforeAll(async () => {
    requireBinaries('pebble-challtestsrv');
    dns = await FakeDnsServer.start();
  });
  afterAll(async () => {
    await dns?.stop();
  });

  it('turns SERVFAIL into DnsUnavailable, never into "no record"', async () => {
    await dns.setServfail('broken.example.test');
    const resolver = new NodeDnsResolver({ servers: [dns.address] });
    await expect(resolver.resolveTxt('broken.example.test')).rejects.toThrow(DnsUnavailable);
    await expect(resolver.resolveTxt('broken.example.test')).rejects.toMatchObject({ reason: 'the DNS server failed to answer (SERVFAIL)' });
  });

  it('gives up on a server that never answers (its timeout, then the hard deadline, each well within the test’s)', async () => {
    // A UDP socket that reads queries and answers nothing: a dead server behind a firewall.
    const silent = createSocket('udp4');
    await new Promise<void>((resolve) => silent.bind(0, '127.0.0.1', resolve));
    try {
      const resolver = new NodeDnsResolver({ servers: [`127.0.0.1:${silent.address().port}`], timeoutMs: 300, tries: 2 });
      await expect(resolver.resolveTxt('_kiln-challenge.shop.example.test')).rejects.toMatchObject({ reason: 'the DNS server did not answer in time' });
      // The hard deadline wins over c-ares' own retries.
      const capped = new NodeDnsResolver({ servers: [`127.0.0.1:${silent.address().port}`], timeoutMs: 5000, tries: 4, deadlineMs: 400 });
      await expect(capped.resolveAddresses('shop.example.test')).rejects.toMatchObject({ reason: 'the lookup took too long' });
    } finally {
      silent.close();
    }
  });

  it('answers no records for IP literals and empty names without asking anyone', async () => {
    const resolver = new NodeDnsResolver({ servers: ['127.0.0.1:1'] });
    expect(await resolver.resolveAddresses('127.0.0.1')).toEqual([]);
    expect(await resolver.resolveTxt('')).toEqual([]);
    expect(await resolver.resolveCname('::1')).toEqual([]);
  });
});

describe('parseDnsServers (DNS_SERVERS)', () => {
  it('reads IPs with optional ports, comma-separated', () => {
    expect(parseDnsServers('127.0.0.1:8053, 1.1.1.1 ,[2606:4700::1111]:53,2001:db8::1')).toEqual(['127.0.0.1:8053', '1.1.1.1', '[2606:4700::1111]:53', '2001:db8::1']);
    expect(parseDnsServers(undefined)).toEqual([]);
    expect(parseDnsServers(' ')).toEqual([]);
  });

  it.each(['dns.google', '127.0.0.1:99999', '1.2.3', 'http://1.1.1.1', '127.0.0.1:53:53', '[::1]x'])('rejects %j', (value) => {
    expect(() => parseDnsServers(value)).toThrow(/Not a DNS server address/);
  });
});
