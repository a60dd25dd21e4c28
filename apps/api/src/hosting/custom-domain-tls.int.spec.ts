import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { connect } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CaddyCertificateAuthority, CaddyEdge, LocalHostingProvider, NodeDnsResolver, type ReleaseBuilder, wildcardSubjectFor } from '@kiln/adapters';
import { CaddyProcess, edgeGet, FakeDnsServer, freePort, makeCertificate, PebbleProcess, requireBinaries } from '@kiln/adapters/testing';
import { InMemorySiteScreenshotter } from '@kiln/domain/testing';
import { type TestApp, type TestUser, newUser, setPlan, signIn, startTestApp } from '../testing/e2e.js';
import type { HostingAdapters } from './hosting.module.js';

const INDEX_HTML = '<!doctype html><title>Shop</title><div id="root"></div><script type="module" src="/assets/index-3f9a1c2b.js"></script>';
const ASSET = 'document.getElementById("root").textContent = "The shop";';
/** Kiln's subdomains in this spec: a parent the wildcard certificate covers (not `localhost`, which Caddy treats as its own). */
const PUBLISHED_URL_TEMPLATE = 'https://{slug}.sites.kiln.test';

/**
 * Stands in for the sandbox's `vite build` (covered by publish.local.int.spec.ts): every build's
 * output is a prepared folder with an index.html and a hashed asset, which LocalHostingProvider
 * copies into a release as it would a real build's.
 */
class PreparedBuild implements ReleaseBuilder {
  constructor(private readonly projectDir: string) {}

  async buildForRelease(): Promise<{ exitCode: number; timedOut: boolean; log: string; projectDir: string; outputDir: string }> {
    return { exitCode: 0, timedOut: false, log: 'built', projectDir: this.projectDir, outputDir: 'dist' };
  }
}

/**
 * Issue #15's "A real certificate, for real", through Kiln itself: a Pro user publishes and adds a
 * custom domain over Kiln's API, the domain's records are published on a real DNS server
 * (pebble-challtestsrv) that Kiln's resolver reads, and verify-dns makes Caddy's on-demand TLS
 * ask Kiln's own tls-allowed endpoint and get a certificate from Pebble, a real ACME CA that
 * validates by connecting back to Caddy. HTTPS to the domain, trusting only Pebble's root,
 * answers the app from the release Kiln wrote.
 */
describe('custom domain → certificate through Kiln: Caddy on-demand TLS + Pebble + fake DNS (real processes)', () => {
  let dir: string | undefined;
  let dnsServer: FakeDnsServer | undefined;
  let pebble: PebbleProcess | undefined;
  let caddy: CaddyProcess | undefined;
  let t: TestApp | undefined;
  let httpsPort: number;
  let wildcardCa: string;
  /** The hosts Caddy (Go's HTTP client, not this spec's own calls) asked Kiln about (GET /api/hosting/tls-allowed?domain=…), in order. */
  const asked: string[] = [];

  beforeAll(async () => {
    requireBinaries('caddy', 'pebble', 'pebble-challtestsrv', 'openssl');
    dir = await mkdtemp(path.join(tmpdir(), 'kiln-custom-domain-tls-'));
    const hostingRoot = path.join(dir, 'hosting');
    const buildDir = path.join(dir, 'build');
    await mkdir(path.join(buildDir, 'dist', 'assets'), { recursive: true });
    await writeFile(path.join(buildDir, 'dist', 'index.html'), INDEX_HTML);
    await writeFile(path.join(buildDir, 'dist', 'assets', 'index-3f9a1c2b.js'), ASSET);

    const httpPort = await freePort();
    httpsPort = await freePort();
    dnsServer = await FakeDnsServer.start();
    // Pebble validates on Caddy's own ports (NOTES.md: its TLS port and Caddy's HTTPS port are one).
    // Both kept as soon as each has started, so afterAll stops one even when the other failed.
    const started = await Promise.allSettled([
      PebbleProcess.start({ dir: path.join(dir, 'pebble'), dnsServer: dnsServer.address, httpPort, tlsPort: httpsPort }).then((p) => (pebble = p)),
      CaddyProcess.start(path.join(dir, 'caddy')).then((c) => (caddy = c)),
    ]);
    for (const outcome of started) if (outcome.status === 'rejected') throw outcome.reason;
    if (pebble === undefined || caddy === undefined) throw new Error('Pebble or Caddy did not start');

    const hosting: HostingAdapters = {
      provider: new LocalHostingProvider({ hostingRoot, builder: new PreparedBuild(buildDir) }),
      dns: new NodeDnsResolver({ servers: [dnsServer.address] }),
      certificates: new CaddyCertificateAuthority({ edgePort: httpsPort, trustedRoots: pebble.issuerRoot, timeoutMs: 30_000 }),
      screenshotter: new InMemorySiteScreenshotter(),
    };
    t = await startTestApp({ env: { PUBLISHED_URL_TEMPLATE }, overrides: { hosting } });
    t.app.getHttpServer().on('request', (req: IncomingMessage) => {
      const url = new URL(req.url ?? '/', 'http://kiln');
      if (url.pathname === '/api/hosting/tls-allowed' && req.headers['user-agent']?.startsWith('Go-http-client')) asked.push(url.searchParams.get('domain') ?? '');
    });
    const apiPort = (t.app.getHttpServer().address() as { port: number }).port;

    // Kiln's subdomains get the wildcard certificate from files, as productionHosting configures it.
    const wildcardSubject = wildcardSubjectFor(PUBLISHED_URL_TEMPLATE.replace('https://{slug}', 'x'));
    const wildcard = makeCertificate(path.join(dir, 'wildcard'), 'wildcard', [wildcardSubject]);
    wildcardCa = await readFile(wildcard.caFile, 'utf8');
    await new CaddyEdge({
      adminUrl: caddy.adminUrl,
      hostingRoot,
      httpPort,
      httpsPort,
      askUrl: `http://127.0.0.1:${apiPort}/api/hosting/tls-allowed`,
      wildcard: { subjects: [wildcardSubject], certFile: wildcard.certFile, keyFile: wildcard.keyFile },
      acme: { directoryUrl: pebble.directoryUrl, email: 'ops@kiln.test', caRootFile: pebble.listenerCaFile },
    }).load();
  }, 60_000);

  afterAll(async () => {
    // Each on its own: one failing must not leave the other processes or the folder behind.
    await t?.close().catch((error: unknown) => console.error(error));
    await Promise.allSettled([caddy?.stop(), pebble?.stop(), dnsServer?.stop()]);
    if (dir) await rm(dir, { recursive: true, force: true });
  }, 30_000);

  const app = (): TestApp => {
    if (t === undefined) throw new Error('the app did not start');
    return t;
  };
  const pebbleLog = () => pebble!.process.tail(2000);
  const https = (host: string, pathname = '/', ca: string = pebble!.issuerRoot) => edgeGet({ scheme: 'https', port: httpsPort, host, path: pathname, ca });
  const addDomain = async (user: TestUser, projectId: string, domain: string) => {
    const added = await app().http().post(`/api/fly/certificates/${projectId}`).set(user.auth).send({ domain_name: domain });
    expect(added.status).toBe(201);
    expect(added.body.domain).toMatchObject({ domain, status: 'pending' });
    const txt = (added.body.records as { type: string; name: string; value: string }[]).find((r) => r.type === 'TXT');
    expect(txt?.name).toBe(`_kiln-challenge.${domain}`);
    return txt!.value;
  };

  it('a verified custom domain gets a certificate from Pebble through Caddy and serves the app over HTTPS; an unverified one gets none; removed, it has no site', async () => {
    const user = newUser();
    await signIn(app(), user);
    await setPlan(app(), user.id, 'pro_monthly');
    const id = ((await app().http().post('/api/projects').set(user.auth).send({ name: 'Shop' }).expect(201)).body as { id: string }).id;
    await app().http().post(`/api/sandbox/${id}/ensure`).set(user.auth).send({}).expect((r) => expect(r.status).toBeLessThan(300));
    const published = await app().http().post('/api/fly/create-project').set(user.auth).send({ project_id: id, publish: true });
    expect(published.status).toBe(200);
    expect(published.body).toMatchObject({ status: 'live', current_release: { number: 1 } });
    const siteHost = `${published.body.slug as string}.sites.kiln.test`;
    expect(published.body.published_url).toBe(`https://${siteHost}`);

    // The custom domain: its TXT token from Kiln's answer, TXT and A published on the DNS server.
    const domain = `shop-${id.slice(0, 8)}.example.test`;
    const token = await addDomain(user, id, domain);
    await dnsServer!.setTxt(`_kiln-challenge.${domain}`, token);
    await dnsServer!.setA(domain, '127.0.0.1');
    expect(pebbleLog()).not.toContain(domain);

    const verified = await app().http().post('/api/fly/verify-dns').set(user.auth).send({ domain });
    expect(verified.status).toBe(200);
    expect(verified.body).toMatchObject({ verified: true, txt_found: true, target_found: true, domain: { domain, status: 'active', failure_reason: null } });
    // Caddy asked Kiln, Kiln said yes, and Pebble issued (after validating a challenge on Caddy).
    expect(asked).toContain(domain);
    expect((await app().http().get(`/api/hosting/tls-allowed?domain=${domain}`)).status).toBe(200);
    expect(pebbleLog()).toMatch(/Issued certificate serial \w+/);
    expect(pebbleLog()).toContain(domain);

    // HTTPS to the domain, trusting only Pebble's root: the app's page, a client route, its asset.
    const page = await https(domain);
    expect(page.status).toBe(200);
    expect(page.body.toString()).toBe(INDEX_HTML);
    expect((await https(domain, '/cart/checkout')).body.toString()).toBe(INDEX_HTML);
    const asset = await https(domain, '/assets/index-3f9a1c2b.js');
    expect(asset.status).toBe(200);
    expect(asset.body.toString()).toBe(ASSET);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await app().http().get(`/api/fly/machine-status?project_id=${id}`).set(user.auth).expect(200)).body.domains).toMatchObject([
      { domain, status: 'active' },
    ]);

    // A second domain, added and with correct records, but never verified: Kiln refuses it, so
    // Caddy gets it no certificate and Pebble never hears of it.
    const unverified = `unverified-${id.slice(0, 8)}.example.test`;
    const unverifiedToken = await addDomain(user, id, unverified);
    await dnsServer!.setTxt(`_kiln-challenge.${unverified}`, unverifiedToken);
    await dnsServer!.setA(unverified, '127.0.0.1');
    expect((await app().http().get(`/api/hosting/tls-allowed?domain=${unverified}`)).status).toBe(404);
    const authority = new CaddyCertificateAuthority({ edgePort: httpsPort, trustedRoots: pebble!.issuerRoot, timeoutMs: 10_000 });
    expect(await authority.requestCertificate(unverified)).toEqual({ kind: 'failed', reason: expect.stringContaining('could not get a certificate') });
    await expect(https(unverified)).rejects.toThrow();
    expect(asked).toContain(unverified);
    expect(pebbleLog()).not.toContain(unverified);

    // Kiln's subdomain over HTTPS: the wildcard certificate from files, never issued on demand
    // (Caddy does not even ask Kiln, though Kiln would allow it).
    expect((await app().http().get(`/api/hosting/tls-allowed?domain=${siteHost}`)).status).toBe(200);
    const sub = await https(siteHost, '/', wildcardCa);
    expect(sub.status).toBe(200);
    expect(sub.body.toString()).toBe(INDEX_HTML);
    expect(await authority.requestCertificate(siteHost)).toMatchObject({ kind: 'failed', reason: expect.stringContaining('not trusted') });
    expect(await issuerOf(httpsPort, siteHost)).toBe('wildcard test CA');
    // A subdomain nobody published: the same wildcard certificate, no question to Kiln, no site.
    const nobody = `nobody-${id.slice(0, 8)}.sites.kiln.test`;
    expect((await https(nobody, '/', wildcardCa)).status).toBe(404);
    for (const host of [siteHost, nobody]) {
      expect(asked).not.toContain(host);
      expect(pebbleLog()).not.toContain(host);
    }

    // Removing the domain takes its route away: the handshake still succeeds on the stored
    // certificate, but there is no site behind it; Kiln no longer allows a certificate.
    const removed = await app().http().delete(`/api/fly/certificates/${id}`).set(user.auth).send({ domain_name: domain });
    expect(removed.status).toBe(200);
    expect(removed.body.domains).toMatchObject([{ domain: unverified, status: 'pending' }]);
    expect((await https(domain)).status).toBe(404);
    expect((await app().http().get(`/api/hosting/tls-allowed?domain=${domain}`)).status).toBe(404);
    // The Kiln subdomain is untouched.
    expect((await https(siteHost, '/', wildcardCa)).body.toString()).toBe(INDEX_HTML);
  }, 60_000);
});

/** The issuer's common name of the certificate Caddy presents for `servername` (trusting nothing). */
function issuerOf(port: number, servername: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, servername, rejectUnauthorized: false, ALPNProtocols: ['http/1.1'] });
    socket.once('secureConnect', () => {
      const issuer = socket.getPeerCertificate().issuer;
      socket.destroy();
      resolve(String(issuer?.CN ?? ''));
    });
    socket.once('error', reject);
    socket.setTimeout(10_000, () => socket.destroy(new Error('TLS handshake timed out')));
  });
}
