import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { LocalHostingProvider, LocalSandboxHost, StaticSiteServer } from '@kiln/adapters';
import { InMemoryCertificateAuthority, InMemoryDnsResolver, InMemorySiteScreenshotter } from '@kiln/domain/testing';
import { parseEventStream, postStream } from '../ai/testing/post-sse.js';
import { type TestApp, type TestUser, newUser, setPlan, signIn, startTestApp, testConfig } from '../testing/e2e.js';
import type { HostingAdapters } from './hosting.module.js';
import { createPublishedUrls, ownHostsOf } from './published-urls.js';

/** The dependency cache every sandbox test shares (libs/adapters/src/sandbox/testing/sandbox-test-dirs.ts). */
const TEST_SANDBOX_CACHE_DIR = path.join(tmpdir(), 'kiln-sandbox-cache-test');
const IMMUTABLE = 'public, max-age=31536000, immutable';

interface SiteReply {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  /** The body as sent (still encoded when Content-Encoding says so). */
  readonly raw: Buffer;
  /** The body decoded. */
  readonly text: string;
}

/**
 * Publishing end to end on the real adapters (issue #15 "What it must show"): the offline
 * assistant builds an app through the turn route in a real sandbox (LocalSandboxHost), Vite builds
 * it into a release (LocalHostingProvider), and the API's own port serves it by Host
 * (StaticSiteServer) to a visitor with no cookie and no token.
 */
describe('publishing the generated app, served by Host (real sandbox and hosting, slow)', () => {
  let t: TestApp | undefined;
  let host: LocalSandboxHost | undefined;
  const temp: string[] = [];
  let hostingRoot: string;
  const dns = new InMemoryDnsResolver();

  beforeAll(async () => {
    const sandboxRoot = await mkdtemp(path.join(tmpdir(), 'kiln-publish-sandboxes-'));
    temp.push(sandboxRoot);
    hostingRoot = await mkdtemp(path.join(tmpdir(), 'kiln-publish-hosting-'));
    temp.push(hostingRoot);
    host = new LocalSandboxHost({ root: sandboxRoot, cacheDir: TEST_SANDBOX_CACHE_DIR });
    await host.prepareTemplate();
    // As productionHosting wires them, with DNS, certificates and screenshots in memory.
    const config = testConfig();
    const urls = createPublishedUrls(config.hosting, ownHostsOf([config.publicApiUrl, ...config.webOrigins, config.previewUrlTemplate]));
    const sites: StaticSiteServer = new StaticSiteServer({ hostingRoot, isSiteHost: (h) => urls.slugOf(h) !== null || sites.serves(h) });
    const hosting: HostingAdapters = {
      provider: new LocalHostingProvider({ hostingRoot, builder: host }),
      dns,
      certificates: new InMemoryCertificateAuthority(),
      screenshotter: new InMemorySiteScreenshotter(),
      siteServer: sites,
    };
    t = await startTestApp({ overrides: { sandboxHost: host, hosting } });
  }, 240_000);

  afterAll(async () => {
    // Each step on its own: one failing must not leave the others' processes or folders behind.
    await t?.close().catch((error: unknown) => console.error(error));
    await host?.stopAll().catch((error: unknown) => console.error(error));
    await Promise.all(temp.map((dir) => rm(dir, { recursive: true, force: true }).catch((error: unknown) => console.error(error))));
  }, 60_000);

  const app = (): TestApp => {
    if (t === undefined) throw new Error('the app did not start');
    return t;
  };
  const port = () => (app().app.getHttpServer().address() as AddressInfo).port;

  /** A GET to the API's port as a visitor of `siteHost`: only Host (and what `headers` add), no cookie, no token. */
  const visit = (siteHost: string, pathname: string, headers: Record<string, string> = {}): Promise<SiteReply> =>
    new Promise((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port: port(), path: pathname, method: 'GET', headers: { Host: siteHost, ...headers } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const raw = Buffer.concat(chunks);
          const encoding = res.headers['content-encoding'];
          const decoded = encoding === 'br' ? brotliDecompressSync(raw) : encoding === 'gzip' ? gunzipSync(raw) : raw;
          resolve({ status: res.statusCode ?? 0, headers: res.headers, raw, text: decoded.toString('utf8') });
        });
      });
      req.on('error', reject);
      req.end();
    });

  const turnUrl = (projectId: string) => `http://127.0.0.1:${port()}/api/projects/${projectId}/turns`;
  const turnBody = (message: string) => ({ message, idempotency_key: randomUUID(), auto_run: true });
  const turn = async (user: TestUser, projectId: string, message: string) => {
    const reply = await postStream(turnUrl(projectId), user.auth, turnBody(message));
    expect(reply.status).toBe(200);
    expect(reply.events[reply.events.length - 1]).toMatchObject({ event: 'done', data: { status: 'kept' } });
  };
  /** A turn that runs `during` once its tasks have started (the project's turn lock held), then is read to its end. */
  const turnWhile = async (user: TestUser, projectId: string, message: string, during: () => Promise<void>) => {
    const response = await fetch(turnUrl(projectId), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream', ...user.auth },
      body: JSON.stringify(turnBody(message)),
    });
    expect(response.status).toBe(200);
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let text = '';
    let ran = false;
    for (;;) {
      const chunk = await reader.read();
      if (chunk.done) break;
      text += decoder.decode(chunk.value, { stream: true });
      if (!ran && text.includes('event: task\n')) {
        ran = true;
        await during();
      }
    }
    expect(ran).toBe(true);
    expect(parseEventStream(text).events.at(-1)).toMatchObject({ event: 'done', data: { status: 'kept' } });
  };
  const publish = (user: TestUser, projectId: string) => app().http().post('/api/fly/create-project').set(user.auth).send({ project_id: projectId, publish: true });
  const status = async (user: TestUser, projectId: string) =>
    (await app().http().get(`/api/fly/machine-status?project_id=${projectId}`).set(user.auth).expect(200)).body as Record<string, unknown>;
  const usage = async (user: TestUser) => (await app().http().get('/api/usage').set(user.auth).expect(200)).body as Record<string, unknown>;
  /** A signed-in user on `plan` (null: Free) with a project whose sandbox is up. */
  const projectOf = async (plan: string | null, name: string) => {
    const user = newUser();
    await signIn(app(), user);
    if (plan !== null) await setPlan(app(), user.id, plan);
    const created = await app().http().post('/api/projects').set(user.auth).send({ name }).expect(201);
    const id = (created.body as { id: string }).id;
    await app().http().post(`/api/sandbox/${id}/ensure`).set(user.auth).send({}).expect((r) => expect(r.status).toBeLessThan(300));
    return { user, id };
  };
  /** What LocalHostingProvider has written for a project (releases and any temporary folder), [] when none. */
  const releaseFolders = async (projectId: string) => readdir(path.join(hostingRoot, 'releases', projectId)).catch(() => []);
  /** A log a person reads names no folder of the server's: not the sandboxes', the hosting's or the dependency cache's, not even by name. */
  const expectNoServerPaths = (log: string) => {
    for (const dir of [...temp, TEST_SANDBOX_CACHE_DIR]) {
      expect(log).not.toContain(dir);
      expect(log).not.toContain(path.basename(dir));
    }
    // The checkout's own folder by its full path (its last name may be a plain word such as "main").
    expect(log).not.toContain(process.cwd());
    expect(log).not.toMatch(/\/tmp\/|deps-[0-9a-f]{8}|\.\.\//);
  };
  /** The built JS the page loads (its hashed /assets/*.js). */
  const scriptOf = (html: string) => {
    const src = /<script[^>]+src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    if (src === undefined) throw new Error(`no /assets/*.js script in ${html}`);
    return src;
  };

  it('publishes the generated app: served with no cookie at its subdomain, deep links, immutable assets; edit + publish, rollback, a broken build kept out; deleting the project takes it all down', async () => {
    const { user, id } = await projectOf('pro_monthly', 'Chores');
    await turn(user, id, 'Build a todo list app called Chores');

    const first = await publish(user, id);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ status: 'live', current_release: { number: 1 } });
    const slug = first.body.slug as string;
    const siteHost = `${slug}.apps.localhost`;
    expect(first.body.published_url).toBe(`http://${siteHost}:3000`);

    // The page and its script, to a visitor with nothing but the Host.
    const index = await visit(siteHost, '/');
    expect(index.status).toBe(200);
    expect(index.headers['content-type']).toMatch(/^text\/html/);
    expect(index.headers['cache-control']).toBe('no-cache');
    expect(index.headers['set-cookie']).toBeUndefined();
    const script = scriptOf(index.text);
    const js = await visit(siteHost, script);
    expect(js.status).toBe(200);
    expect(js.headers['content-type']).toMatch(/javascript/);
    expect(js.headers['cache-control']).toBe(IMMUTABLE);
    expect(js.text).toContain('Chores');
    // Compressed when asked: brotli first, gzip otherwise, the same bytes once decoded.
    const br = await visit(siteHost, script, { 'Accept-Encoding': 'gzip, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.raw.length).toBeLessThan(js.raw.length);
    expect(br.text).toBe(js.text);
    const gz = await visit(siteHost, script, { 'Accept-Encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.text).toBe(js.text);
    expect(gz.headers['cache-control']).toBe(IMMUTABLE);
    // Revalidation by ETag, whichever encoding it was fetched in.
    const etag = gz.headers['etag'];
    expect(typeof etag).toBe('string');
    expect((await visit(siteHost, script, { 'If-None-Match': etag as string })).status).toBe(304);
    // A client-side route is the app's page; a missing asset and an unknown site are 404s.
    const deep = await visit(siteHost, '/some/client/route');
    expect(deep.status).toBe(200);
    expect(deep.headers['cache-control']).toBe('no-cache');
    expect(deep.text).toBe(index.text);
    expect((await visit(siteHost, '/assets/missing-0123abcd.js')).status).toBe(404);
    const unknown = await visit(`no-such-site-${slug}.apps.localhost`, '/');
    expect(unknown.status).toBe(404);
    expect(unknown.text).toContain('No site here');
    // A cookie of Kiln's origin changes nothing and comes back in nothing.
    const withCookie = await visit(siteHost, '/', { Cookie: 'sb-access-token=secret' });
    expect(withCookie.text).toBe(index.text);
    // A browser's Host (with the port, any case) is the same site; Kiln's API is never reached
    // through a site's host, even with the owner's token.
    expect((await visit(`${siteHost.toUpperCase()}:3000`, '/')).text).toBe(index.text);
    const api = await visit(siteHost, '/api/usage', { ...user.auth });
    expect(api.status).toBe(200);
    expect(api.text).toBe(index.text);

    // An edit, published again: release 2 is served. While the edit runs, publishing is refused
    // (a build never sees half-edited files) and release 1 stays served.
    await turnWhile(user, id, 'change the title to Errands', async () => {
      const busy = await publish(user, id);
      expect(busy.status).toBe(409);
      expect(busy.body.code).toBe('PROJECTS.BUSY');
      expect(scriptOf((await visit(siteHost, '/')).text)).toBe(script);
    });
    expect(await releaseFolders(id)).toHaveLength(1);
    const second = await publish(user, id);
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ slug, current_release: { number: 2 } });
    const script2 = scriptOf((await visit(siteHost, '/')).text);
    expect(script2).not.toBe(script);
    const js2 = await visit(siteHost, script2);
    expect(js2.text).toContain('Errands');
    expect(js2.text).not.toContain('Chores');

    // Rollback to release 1: the old words again, nothing built.
    const rolled = await app().http().post('/api/fly/rollback').set(user.auth).send({ project_id: id, release_id: first.body.current_release.id });
    expect(rolled.status).toBe(200);
    expect(rolled.body.current_release).toMatchObject({ id: first.body.current_release.id, number: 1 });
    expect(scriptOf((await visit(siteHost, '/')).text)).toBe(script);
    expect((await visit(siteHost, script)).text).toContain('Chores');
    expect(await releaseFolders(id)).toHaveLength(2);

    // A broken build: 422 with Vite's log, the site still on release 1, no release, no credit.
    await app()
      .http()
      .post(`/api/sandbox/${id}/write-file`)
      .set(user.auth)
      .send({ path: 'src/App.tsx', content: 'export default function App() {\n  return <main>Broken (</main>;\n' })
      .expect((r) => expect(r.status).toBeLessThan(300));
    const [before, creditsBefore] = [await status(user, id), await usage(user)];
    const broken = await publish(user, id);
    expect(broken.status).toBe(422);
    expect(broken.body.code).toBe('HOSTING.BUILD_FAILED');
    const log = broken.body.build_log as string;
    // Vite's own words, naming the file and line (a relative path: server folders are never shown).
    expect(log).toContain('Build failed');
    expect(log).toMatch(/src\/App\.tsx:2:\d+/);
    expectNoServerPaths(log);
    expect(await status(user, id)).toEqual(before);
    expect(await usage(user)).toEqual(creditsBefore);
    expect(await releaseFolders(id)).toHaveLength(2);
    expect(scriptOf((await visit(siteHost, '/')).text)).toBe(script);
    // An import of what a package does not export: Vite names the package's file, inside
    // node_modules, never where the shared dependency tree lives on the server.
    const missingExport = "import { NoSuchIcon } from 'lucide-react';\nexport function App() {\n  return <NoSuchIcon />;\n}\nexport default App;\n";
    await app().http().post(`/api/sandbox/${id}/write-file`).set(user.auth).send({ path: 'src/App.tsx', content: missingExport }).expect((r) => expect(r.status).toBeLessThan(300));
    const unexported = await publish(user, id);
    expect(unexported.status).toBe(422);
    expect(unexported.body.build_log).toMatch(/"NoSuchIcon" is not exported by "node_modules\/lucide-react\//);
    expectNoServerPaths(unexported.body.build_log as string);
    expect(await releaseFolders(id)).toHaveLength(2);

    // Deleting the project takes the site down and removes its releases (read-only folders).
    await app().http().delete(`/api/projects/${id}`).set(user.auth).expect(204);
    const gone = await visit(siteHost, '/');
    expect(gone.status).toBe(404);
    expect(gone.text).toContain('No site here');
    expect((await visit(siteHost, script)).status).toBe(404);
    // Nothing of it is left in the hosting folder: no release, no host pointer, no release id.
    for (const dir of ['releases', 'hosts', 'release-ids']) expect(await readdir(path.join(hostingRoot, dir))).toEqual([]);
  }, 180_000);

  it("a new name moves the site (the old host stops answering); a verified custom domain serves it; unpublished it is gone, published again it is back at its name", async () => {
    // The starter app as created: publishing needs no turn.
    const { user, id } = await projectOf('pro_monthly', 'Starter');
    const first = (await publish(user, id).expect(200)).body;
    const oldHost = `${first.slug as string}.apps.localhost`;
    expect((await visit(oldHost, '/')).status).toBe(200);
    const slug = `moved-${id.slice(0, 8)}`;
    const moved = await app().http().post('/api/fly/create-project').set(user.auth).send({ project_id: id, publish: true, slug });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ slug, status: 'live', current_release: { number: 2 } });
    const page = await visit(`${slug}.apps.localhost`, '/');
    expect(page.status).toBe(200);
    expect((await visit(`${slug}.apps.localhost`, scriptOf(page.text))).headers['cache-control']).toBe(IMMUTABLE);
    expect((await visit(oldHost, '/')).status).toBe(404);

    // A custom domain, once its DNS records are found, serves the same release on the same port.
    const domain = `shop-${id.slice(0, 8)}.example.com`;
    const added = await app().http().post(`/api/fly/certificates/${id}`).set(user.auth).send({ domain_name: domain }).expect(201);
    expect((await visit(domain, '/')).status).toBe(404);
    dns.setTxt(`_kiln-challenge.${domain}`, added.body.records[0].value as string);
    dns.setCname(domain, 'apps.localhost');
    const verified = await app().http().post('/api/fly/verify-dns').set(user.auth).send({ domain });
    expect(verified.body).toMatchObject({ verified: true, domain: { status: 'active' } });
    expect((await visit(domain, '/')).text).toBe(page.text);

    const down = await app().http().delete('/api/fly/destroy-app').set(user.auth).send({ project_id: id });
    expect(down.status).toBe(200);
    expect(down.body).toMatchObject({ status: 'unpublished', slug });
    expect((await visit(`${slug}.apps.localhost`, '/')).status).toBe(404);
    expect((await visit(domain, '/')).status).toBe(404);
    // The releases are kept for publishing again.
    expect(await releaseFolders(id)).toHaveLength(2);
    const again = await publish(user, id);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ slug, status: 'live', current_release: { number: 3 } });
    expect((await visit(`${slug}.apps.localhost`, '/')).text).toContain('<div id="root">');
    // Its still active custom domain with it.
    expect((await visit(domain, '/')).text).toContain('<div id="root">');

    // Its sandbox removed, there is nothing to build: 409, and the site stays as it is.
    await app().http().delete(`/api/sandbox/${id}/cleanup`).set(user.auth).expect((r) => expect(r.status).toBeLessThan(300));
    const nothing = await publish(user, id);
    expect(nothing.status).toBe(409);
    expect(nothing.body.code).toBe('HOSTING.NOTHING_TO_PUBLISH');
    expect((await visit(`${slug}.apps.localhost`, '/')).status).toBe(200);
    expect(await releaseFolders(id)).toHaveLength(3);
  }, 60_000);

  it("a Free user's publish is 402 'published': nothing built, nothing served", async () => {
    const { user, id } = await projectOf(null, 'Pantry');
    const response = await publish(user, id);
    expect(response.status).toBe(402);
    expect(response.body).toMatchObject({ code: 'PUBLISHING.NOT_INCLUDED', limit_type: 'published' });
    expect((await status(user, id)).status).toBe('never_published');
    expect(await releaseFolders(id)).toEqual([]);
  }, 60_000);
});
