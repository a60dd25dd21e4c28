import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SignJWT } from 'jose';
import { ScriptedSandboxHost } from '../sandbox/testing/scripted-sandbox-host.js';
import { type TestApp, type TestUser, newUser, startTestApp } from '../testing/e2e.js';
import { BRIDGE_TAG } from './bridge-script.js';
import { FakeDevServer, PAGE, SCRIPT, echo, rawRequest, websocketHandshake } from './testing/fake-dev-server.js';

const SECRET = 'preview-secret-for-tests-0123456789abcdef';

describe('live preview proxy', () => {
  let t: TestApp;
  let host: ScriptedSandboxHost;
  let dev: FakeDevServer;
  let decoy: FakeDevServer;
  let apiPort: number;

  beforeAll(async () => {
    dev = new FakeDevServer();
    decoy = new FakeDevServer();
    await dev.start();
    await decoy.startTcp();
    host = new ScriptedSandboxHost();
    t = await startTestApp({ env: { PREVIEW_TOKEN_SECRET: SECRET }, overrides: { sandboxHost: host } });
    apiPort = (t.app.getHttpServer().address() as AddressInfo).port;
  });

  afterAll(async () => {
    await t.close();
    await dev.stop();
    await decoy.stop();
  });

  interface Project {
    readonly user: TestUser;
    readonly id: string;
    /** The preview Host header. */
    readonly host: string;
    /** Path and query of the preview URL from ensure. */
    readonly authPath: string;
  }

  /** A project whose dev server runs on the fake dev server. */
  const project = async (): Promise<Project> => {
    const user = newUser();
    const id = (await t.http().post('/api/projects').set(user.auth).send({ name: 'Preview' }).expect(201)).body.id as string;
    const ensured = await t.http().post(`/api/sandbox/${id}/ensure`).set(user.auth).expect(200);
    host.devStates.set(id, { status: 'running', socketPath: dev.socketPath, message: 'Website is running' });
    const url = new URL(ensured.body.url as string);
    expect(url.origin).toBe(`http://${id}.preview.localhost:3000`);
    return { user, id, host: `${id}.preview.localhost:${apiPort}`, authPath: `${url.pathname}${url.search}` };
  };

  /** The preview cookie ('kiln_preview=…') from the token exchange. */
  const login = async (p: Project): Promise<string> => {
    const response = await rawRequest(apiPort, { host: p.host, path: p.authPath });
    expect(response.status).toBe(302);
    const cookie = (response.headers['set-cookie'] ?? [])[0] ?? '';
    return cookie.split(';')[0] ?? '';
  };

  describe('token exchange', () => {
    it('turns the URL token into a partitioned, HttpOnly, Secure cookie and redirects to next', async () => {
      const p = await project();
      const response = await rawRequest(apiPort, { host: p.host, path: p.authPath.replace('next=%2F', 'next=%2Fpage%3Fx%3D1') });
      expect(response.status).toBe(302);
      expect(response.headers.location).toBe('/page?x=1');
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.headers['referrer-policy']).toBe('no-referrer');
      const [cookie] = response.headers['set-cookie'] ?? [];
      expect(cookie).toMatch(/^kiln_preview=[\w-]+\.[\w-]+\.[\w-]+; Path=\/; Max-Age=28800; HttpOnly; Secure; SameSite=None; Partitioned$/);
      expect(cookie).not.toMatch(/Domain=/i);
    });

    it.each(['//evil.example/x', 'https://evil.example/', '/\\evil.example', 'javascript:alert(1)', '/ok\r\nSet-Cookie: x=1', ''])('only follows a same-origin path: next=%p → /', async (next) => {
      const p = await project();
      const path = p.authPath.replace('next=%2F', `next=${encodeURIComponent(next)}`);
      const response = await rawRequest(apiPort, { host: p.host, path });
      expect(response.status).toBe(302);
      expect(response.headers.location).toBe('/');
    });

    it('refuses a bad, foreign, expired or wrong-audience token with the 401 page', async () => {
      const a = await project();
      const b = await project();
      const tokenA = new URL(`http://x${a.authPath}`).searchParams.get('token') ?? '';
      const key = new TextEncoder().encode(SECRET);
      const now = Math.floor(Date.now() / 1000);
      const expired = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setIssuer('kiln').setAudience('kiln-preview').setSubject(b.id).setIssuedAt(now - 7200).setExpirationTime(now - 3600).sign(key);
      const wrongAudience = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setIssuer('kiln').setAudience('kiln-preview-session').setSubject(b.id).setIssuedAt(now).setExpirationTime(now + 60).sign(key);
      const unsigned = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(JSON.stringify({ sub: b.id, aud: 'kiln-preview', iss: 'kiln', exp: now + 60 })).toString('base64url')}.`;
      for (const token of ['nope', tokenA, expired, wrongAudience, unsigned]) {
        const response = await rawRequest(apiPort, { host: b.host, path: `/__kiln/auth?token=${encodeURIComponent(token)}&next=%2F` });
        expect(response.status).toBe(401);
        expect(response.headers['set-cookie']).toBeUndefined();
        expect(response.body).toContain('Open this preview from Kiln');
      }
    });
  });

  describe('access', () => {
    it('answers 401 without the cookie, and never reaches the dev server', async () => {
      const p = await project();
      const before = dev.requests.length;
      const response = await rawRequest(apiPort, { host: p.host, path: '/', headers: { Accept: 'text/html' } });
      expect(response.status).toBe(401);
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(response.body).toContain('Open this preview from Kiln');
      expect(response.headers['content-security-policy']).toMatch(/frame-ancestors 'self' http:\/\/localhost:5173 http:\/\/localhost:3000/);
      expect(dev.requests.length).toBe(before);
    });

    it("a cookie for project A does not open project B (nor does A's URL token as a cookie)", async () => {
      const a = await project();
      const b = await project();
      const cookieA = await login(a);
      expect((await rawRequest(apiPort, { host: a.host, path: '/', headers: { Cookie: cookieA } })).status).toBe(200);
      expect((await rawRequest(apiPort, { host: b.host, path: '/', headers: { Cookie: cookieA } })).status).toBe(401);
      const tokenB = new URL(`http://x${b.authPath}`).searchParams.get('token') ?? '';
      expect((await rawRequest(apiPort, { host: b.host, path: '/', headers: { Cookie: `kiln_preview=${tokenB}` } })).status).toBe(401);
    });

    it('accepts the valid cookie among planted ones', async () => {
      const p = await project();
      const cookie = await login(p);
      const response = await rawRequest(apiPort, { host: p.host, path: '/app.js', headers: { Cookie: `kiln_preview=planted; ${cookie}; other=1` } });
      expect(response.status).toBe(200);
    });

    it('refuses a state-changing request from another origin (403)', async () => {
      const a = await project();
      const b = await project();
      const cookie = await login(a);
      const foreign = await rawRequest(apiPort, { host: a.host, path: '/echo', method: 'POST', headers: { Cookie: cookie, Origin: `http://${b.id}.preview.localhost:3000` }, body: 'x' });
      expect(foreign.status).toBe(403);
      const own = await rawRequest(apiPort, { host: a.host, path: '/echo', method: 'POST', headers: { Cookie: cookie, Origin: `http://${a.id}.preview.localhost:3000` }, body: 'x' });
      expect(own.status).toBe(200);
      expect(JSON.parse(own.body)).toMatchObject({ method: 'POST', body: 'x' });
    });
  });

  describe('proxying to the dev server', () => {
    it('injects the bridge right after <head> and fixes Content-Length', async () => {
      const p = await project();
      const cookie = await login(p);
      const response = await rawRequest(apiPort, { host: p.host, path: '/', headers: { Cookie: cookie } });
      expect(response.status).toBe(200);
      expect(response.body).toBe(PAGE.replace('<head>', `<head>${BRIDGE_TAG}`));
      expect(Number(response.headers['content-length'])).toBe(Buffer.byteLength(response.body));
      expect(response.headers['x-upstream']).toBe('yes');
      expect(response.headers['content-security-policy']).toBe("frame-ancestors 'self' http://localhost:5173 http://localhost:3000");
      expect(response.headers['x-content-type-options']).toBe('nosniff');
    });

    it('passes other content through unchanged, keeps the app CSP and leaves encoded HTML alone', async () => {
      const p = await project();
      const cookie = await login(p);
      const script = await rawRequest(apiPort, { host: p.host, path: '/app.js', headers: { Cookie: cookie } });
      expect(script.body).toBe(SCRIPT);
      expect(script.headers['content-type']).toBe('text/javascript');
      const csp = await rawRequest(apiPort, { host: p.host, path: '/csp', headers: { Cookie: cookie } });
      expect(csp.body).toBe(`<head>${BRIDGE_TAG}</head>`);
      expect(csp.headers['content-security-policy']).toBe("script-src 'self', frame-ancestors 'self' http://localhost:5173 http://localhost:3000");
      const gzipped = await rawRequest(apiPort, { host: p.host, path: '/gzipped', headers: { Cookie: cookie } });
      expect(gzipped.headers['content-encoding']).toBe('gzip');
      const missing = await rawRequest(apiPort, { host: p.host, path: '/nothing', headers: { Cookie: cookie } });
      expect([missing.status, missing.body]).toEqual([404, 'not found']);
    });

    it("strips Kiln's Authorization header and the preview cookie, keeps the app's cookies, asks for identity encoding", async () => {
      const p = await project();
      const cookie = await login(p);
      const response = await rawRequest(apiPort, {
        host: p.host,
        path: '/echo?q=1',
        headers: { Cookie: `theme=dark; ${cookie}; app_session=abc`, Authorization: `Bearer ${p.user.token}`, 'Accept-Encoding': 'gzip, br' },
      });
      expect(response.status).toBe(200);
      expect(response.headers['set-cookie']).toEqual(['app_session=1; Path=/']);
      const seen = JSON.parse(response.body) as { url: string; headers: Record<string, string> };
      expect(seen.url).toBe('/echo?q=1');
      expect(seen.headers['authorization']).toBeUndefined();
      expect(seen.headers['cookie']).toBe('theme=dark; app_session=abc');
      expect(seen.headers['accept-encoding']).toBe('identity');
      expect(seen.headers['host']).toBe('localhost');
      expect(seen.headers['x-forwarded-host']).toBe(p.host);
    });

    it('serves the console bridge script', async () => {
      const p = await project();
      const response = await rawRequest(apiPort, { host: p.host, path: '/__kiln/bridge.js' });
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toBe('text/javascript; charset=utf-8');
      expect(response.body).toContain("source: 'kiln-preview'");
      expect(response.body).toContain('"http://localhost:5173","http://localhost:3000"');
    });

    it('only ever connects to the socket the host made, whatever the request says', async () => {
      const p = await project();
      const cookie = await login(p);
      const decoyConnections = decoy.connections;
      const tricks = [
        rawRequest(apiPort, { host: `${p.id}.preview.localhost:${decoy.port}`, path: '/echo', headers: { Cookie: cookie } }),
        rawRequest(apiPort, { host: p.host, path: '/echo', headers: { Cookie: cookie, 'X-Forwarded-Port': String(decoy.port), 'X-Forwarded-Host': `127.0.0.1:${decoy.port}` } }),
        rawRequest(apiPort, { host: p.host, path: `http://127.0.0.1:${decoy.port}/echo`, headers: { Cookie: cookie } }),
        rawRequest(apiPort, { host: p.host, path: `//127.0.0.1:${decoy.port}/echo`, headers: { Cookie: cookie } }),
      ];
      const [otherPort, forwarded, absolute, schemeRelative] = await Promise.all(tricks);
      expect(otherPort?.status).toBe(200);
      expect(forwarded?.status).toBe(200);
      expect(absolute?.status).toBe(400);
      // A path that looks like a URL is only a path to the dev server.
      expect([schemeRelative?.status, schemeRelative?.body]).toEqual([404, 'not found']);
      expect(dev.requests.some((r) => r.url.includes(`127.0.0.1:${decoy.port}/echo`))).toBe(true);
      expect(decoy.connections).toBe(decoyConnections);
    });
  });

  describe('dev server states', () => {
    it('answers 503 "Starting your app…" that reloads itself while the dev server starts', async () => {
      const p = await project();
      const cookie = await login(p);
      host.devStates.set(p.id, { status: 'starting', socketPath: dev.socketPath, message: 'Installing dependencies…' });
      const page = await rawRequest(apiPort, { host: p.host, path: '/', headers: { Cookie: cookie, Accept: 'text/html' } });
      expect(page.status).toBe(503);
      expect(page.headers['retry-after']).toBe('1');
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(page.body).toContain('Starting your app…');
      expect(page.body).toContain('<meta http-equiv="refresh" content="1">');
      expect(page.body).toContain('Installing dependencies…');
      const script = await rawRequest(apiPort, { host: p.host, path: '/app.js', headers: { Cookie: cookie, Accept: '*/*' } });
      expect([script.status, script.headers['content-type'], script.headers['retry-after']]).toEqual([503, 'text/plain; charset=utf-8', '1']);
    });

    it('answers 502 with the (escaped) reason when the dev server failed', async () => {
      const p = await project();
      const cookie = await login(p);
      host.devStates.set(p.id, { status: 'failed', socketPath: null, message: 'Error: <script>x</script> in vite.config.ts' });
      const page = await rawRequest(apiPort, { host: p.host, path: '/', headers: { Cookie: cookie } });
      expect(page.status).toBe(502);
      expect(page.body).toContain('Your app could not start');
      expect(page.body).toContain('Error: &#60;script&#62;x&#60;/script&#62; in vite.config.ts');
    });

    it('answers 404 without a sandbox, and for a preview host that names no project', async () => {
      const p = await project();
      const cookie = await login(p);
      await t.http().delete(`/api/sandbox/${p.id}/cleanup`).set(p.user.auth).expect(200);
      host.devStates.delete(p.id);
      expect((await rawRequest(apiPort, { host: p.host, path: '/', headers: { Cookie: cookie } })).status).toBe(404);
      const bogus = await rawRequest(apiPort, { host: `not-a-project.preview.localhost:${apiPort}`, path: '/' });
      expect(bogus.status).toBe(404);
      expect(bogus.body).toContain('No preview here');
    });

    it('answers the "Starting" page when the dev server is not answering on its port', async () => {
      const p = await project();
      const cookie = await login(p);
      const gone = new FakeDevServer();
      const socketPath = await gone.start();
      await gone.stop();
      host.devStates.set(p.id, { status: 'running', socketPath, message: 'Website is running' });
      const page = await rawRequest(apiPort, { host: p.host, path: '/', headers: { Cookie: cookie, Accept: 'text/html' } });
      expect(page.status).toBe(503);
    });

    it('counts every preview request as activity (devServer is asked)', async () => {
      const p = await project();
      const cookie = await login(p);
      const before = host.devServerCalls.filter((id) => id === p.id).length;
      await rawRequest(apiPort, { host: p.host, path: '/app.js', headers: { Cookie: cookie } });
      expect(host.devServerCalls.filter((id) => id === p.id).length).toBe(before + 1);
    });
  });

  describe('websockets (Vite HMR)', () => {
    it('passes the upgrade through to the dev server with the cookie, without Kiln credentials', async () => {
      const p = await project();
      const cookie = await login(p);
      const { status, socket } = await websocketHandshake(apiPort, {
        host: p.host,
        path: '/?token=vite',
        headers: { Cookie: `${cookie}; hmr=1`, Origin: `http://${p.id}.preview.localhost:3000`, Authorization: 'Bearer kiln' },
      });
      expect(status).toBe(101);
      try {
        expect(await echo(socket!, 'ping-frame')).toBe('ping-frame');
        const seen = dev.upgrades.at(-1);
        expect(seen?.url).toBe('/?token=vite');
        expect(seen?.headers['cookie']).toBe('hmr=1');
        expect(seen?.headers['authorization']).toBeUndefined();
      } finally {
        socket?.destroy();
      }
    });

    it('refuses the upgrade without the cookie, with another project’s cookie, or from another origin', async () => {
      const a = await project();
      const b = await project();
      const cookieA = await login(a);
      const upgrades = dev.upgrades.length;
      expect((await websocketHandshake(apiPort, { host: a.host })).status).toBe(401);
      expect((await websocketHandshake(apiPort, { host: b.host, headers: { Cookie: cookieA } })).status).toBe(401);
      expect((await websocketHandshake(apiPort, { host: a.host, headers: { Cookie: cookieA, Origin: 'http://localhost:3000' } })).status).toBe(403);
      expect((await websocketHandshake(apiPort, { host: a.host, headers: { Cookie: cookieA, Origin: `http://${b.id}.preview.localhost:3000` } })).status).toBe(403);
      expect(dev.upgrades.length).toBe(upgrades);
    });

    it('refuses the upgrade while the dev server starts (503)', async () => {
      const p = await project();
      const cookie = await login(p);
      host.devStates.set(p.id, { status: 'starting', socketPath: null, message: 'Starting' });
      expect((await websocketHandshake(apiPort, { host: p.host, headers: { Cookie: cookie } })).status).toBe(503);
    });

    it('closes an upgrade for a non-preview host (no websocket endpoints in the API)', async () => {
      await expect(websocketHandshake(apiPort, { host: `localhost:${apiPort}` })).rejects.toThrow(/socket hang up|ECONNRESET/);
    });
  });

  describe('the normal app', () => {
    it('still answers every other Host, and the API is never reachable through a preview host', async () => {
      const p = await project();
      const health = await rawRequest(apiPort, { host: `localhost:${apiPort}`, path: '/health' });
      expect(health.status).toBe(200);
      expect(JSON.parse(health.body)).toMatchObject({ status: 'ok' });
      const api = await rawRequest(apiPort, { host: `localhost:${apiPort}`, path: `/api/sandbox/${p.id}/info`, headers: { Authorization: `Bearer ${p.user.token}` } });
      expect(api.status).toBe(200);
      const viaPreview = await rawRequest(apiPort, { host: p.host, path: `/api/sandbox/${p.id}/info`, headers: { Authorization: `Bearer ${p.user.token}` } });
      expect(viaPreview.status).toBe(401);
      expect(viaPreview.headers['content-type']).toBe('text/html; charset=utf-8');
    });
  });
});

describe('preview shutdown', () => {
  it('closes proxied websockets so the API can close', async () => {
    const dev = new FakeDevServer();
    await dev.start();
    const host = new ScriptedSandboxHost();
    const t = await startTestApp({ overrides: { sandboxHost: host } });
    try {
      const port = (t.app.getHttpServer().address() as AddressInfo).port;
      const user = newUser();
      const id = (await t.http().post('/api/projects').set(user.auth).send({ name: 'x' }).expect(201)).body.id as string;
      const url = new URL((await t.http().post(`/api/sandbox/${id}/ensure`).set(user.auth).expect(200)).body.url as string);
      host.devStates.set(id, { status: 'running', socketPath: dev.socketPath, message: 'Website is running' });
      const previewHost = `${id}.preview.localhost:${port}`;
      const auth = await rawRequest(port, { host: previewHost, path: `${url.pathname}${url.search}` });
      const cookie = ((auth.headers['set-cookie'] ?? [])[0] ?? '').split(';')[0] ?? '';
      const { status, socket } = await websocketHandshake(port, { host: previewHost, headers: { Cookie: cookie } });
      expect(status).toBe(101);
      const closed = new Promise<void>((resolve) => socket?.once('close', () => resolve()));
      await t.close();
      await closed;
    } finally {
      await dev.stop();
    }
  });
});
