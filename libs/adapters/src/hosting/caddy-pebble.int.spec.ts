import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CaddyCertificateAuthority } from './caddy-certificate-authority.adapter.js';
import { CaddyEdge } from './caddy-edge.js';
import { NodeDnsResolver } from './node-dns-resolver.adapter.js';
import { CaddyProcess } from './testing/caddy-process.js';
import { AskServer, edgeGet } from './testing/edge-client.js';
import { FakeDnsServer } from './testing/fake-dns.js';
import { PebbleProcess } from './testing/pebble-process.js';
import { freePort, requireBinaries } from './testing/test-processes.js';

/**
 * A real certificate, for real: a custom domain is verified through the DNS resolver against a
 * real DNS server, then Caddy's on-demand TLS (behind an ask endpoint) gets it a certificate
 * from Pebble, a real ACME CA that validates the challenge by connecting to Caddy.
 */
describe('Custom domain certificate: Caddy on-demand TLS + Pebble ACME + fake DNS', () => {
  let dir: string;
  let dns: FakeDnsServer | undefined;
  let pebble: PebbleProcess | undefined;
  let caddy: CaddyProcess | undefined;
  let ask: AskServer | undefined;
  let httpsPort: number;
  let hostingRoot: string;
  const site = '<!doctype html><title>Shop</title><h1>The shop</h1>';

  beforeAll(async () => {
    requireBinaries('caddy', 'pebble', 'pebble-challtestsrv', 'openssl');
    dir = mkdtempSync(path.join(tmpdir(), 'kiln-caddy-pebble-'));
    hostingRoot = path.join(dir, 'hosting');
    const releaseDir = path.join(hostingRoot, 'releases', 'r1');
    mkdirSync(releaseDir, { recursive: true });
    writeFileSync(path.join(releaseDir, 'index.html'), site);
    mkdirSync(path.join(hostingRoot, 'hosts'));
    for (const host of ['shop.example.test', 'refused.example.test']) symlinkSync(releaseDir, path.join(hostingRoot, 'hosts', host));

    const httpPort = await freePort();
    httpsPort = await freePort();
    dns = await FakeDnsServer.start();
    // Pebble validates on Caddy's own ports (NOTES.md: the TLS port and Caddy's HTTPS port are one).
    // Each kept as soon as it has started, so afterAll stops it even when another failed.
    const started = await Promise.allSettled([
      PebbleProcess.start({ dir: path.join(dir, 'pebble'), dnsServer: dns.address, httpPort, tlsPort: httpsPort }).then((p) => (pebble = p)),
      CaddyProcess.start(path.join(dir, 'caddy')).then((c) => (caddy = c)),
      AskServer.start().then((a) => (ask = a)),
    ]);
    for (const outcome of started) if (outcome.status === 'rejected') throw outcome.reason;
    if (pebble === undefined || caddy === undefined || ask === undefined) throw new Error('Pebble, Caddy or the ask server did not start');
    await new CaddyEdge({
      adminUrl: caddy.adminUrl,
      hostingRoot,
      httpPort,
      httpsPort,
      askUrl: ask.url,
      acme: { directoryUrl: pebble.directoryUrl, email: 'ops@kiln.test', caRootFile: pebble.listenerCaFile },
    }).load();
  });

  afterAll(async () => {
    await Promise.allSettled([caddy?.stop(), pebble?.stop(), dns?.stop(), ask?.stop()]);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('verifies the domain through DNS, gets it a certificate from the CA, and serves the site over HTTPS', async () => {
    const domain = 'shop.example.test';
    const token = randomBytes(16).toString('hex');
    await dns!.setTxt(`_kiln-challenge.${domain}`, 'v=spf1 -all', token);
    await dns!.setA(domain, '127.0.0.1');

    const resolver = new NodeDnsResolver({ servers: [dns!.address] });
    expect(await resolver.resolveTxt(`_kiln-challenge.${domain}`)).toContain(token);
    expect(await resolver.resolveAddresses(domain)).toEqual(['127.0.0.1']);

    // Before Kiln allows it, nothing is issued.
    const authority = new CaddyCertificateAuthority({ edgePort: httpsPort, trustedRoots: pebble!.issuerRoot, timeoutMs: 30_000 });
    expect((await authority.requestCertificate(domain)).kind).toBe('failed');

    ask!.allowed.add(domain);
    expect(await authority.requestCertificate(domain)).toEqual({ kind: 'issued' });
    expect(pebble!.process.tail(200)).toMatch(/Issued certificate serial \w+/);

    const res = await edgeGet({ scheme: 'https', port: httpsPort, host: domain, path: '/checkout', ca: pebble!.issuerRoot });
    expect(res.status).toBe(200);
    expect(res.body.toString()).toBe(site);
    // Asking again answers from Caddy's stored certificate.
    expect(await authority.requestCertificate(domain)).toEqual({ kind: 'issued' });
  });

  it('a certificate that does not chain to the trusted roots is not "issued"', async () => {
    // Node's public roots: Pebble's certificate for the domain is real but not publicly trusted.
    const publicRoots = new CaddyCertificateAuthority({ edgePort: httpsPort, timeoutMs: 10_000 });
    const outcome = await publicRoots.requestCertificate('shop.example.test');
    expect(outcome).toMatchObject({ kind: 'failed', reason: expect.stringContaining('not trusted') });
  });

  it('a domain the ask endpoint refuses gets no certificate, and the CA is never asked', async () => {
    const domain = 'refused.example.test';
    await dns!.setTxt(`_kiln-challenge.${domain}`, 'some-token');
    await dns!.setA(domain, '127.0.0.1');
    const authority = new CaddyCertificateAuthority({ edgePort: httpsPort, trustedRoots: pebble!.issuerRoot, timeoutMs: 10_000 });
    expect(await authority.requestCertificate(domain)).toEqual({ kind: 'failed', reason: expect.stringContaining('could not get a certificate') });
    await expect(edgeGet({ scheme: 'https', port: httpsPort, host: domain, ca: pebble!.issuerRoot })).rejects.toThrow();
    expect(ask!.asked).toContain(domain);
    expect(pebble!.process.tail(1000)).not.toContain(domain);
  });
});
