import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { SignJWT } from 'jose';
import type WebSocket from 'ws';
import { loopbackFetch } from '../app-auth/testing/app-auth-harness.js';
import { type RealtimeApp, closed, nextFrame, opened, rawSocket, startRealtimeApp } from './testing/realtime-harness.js';

jest.setTimeout(30_000);

const sign = (secret: string, claims: Record<string, unknown>, exp: number) =>
  new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setIssuedAt().setExpirationTime(exp).sign(new TextEncoder().encode(secret));
const join = (topic: string, extra: Record<string, unknown> = {}) => JSON.stringify(['1', '1', topic, 'phx_join', { config: { broadcast: { self: false }, presence: { key: '' }, postgres_changes: [] }, ...extra }]);
const replyTo = (ref: string) => (f: unknown[]) => f[1] === ref && f[3] === 'phx_reply';

/** What realtime-js never sends: caps, malformed and oversized frames, other projects' keys, tampered and expired tokens. */
describe('Realtime against hostile clients (e2e, local PostgreSQL)', () => {
  let app: RealtimeApp;
  let x: Awaited<ReturnType<RealtimeApp['project']>>;
  let y: Awaited<ReturnType<RealtimeApp['project']>>;
  const sockets: WebSocket[] = [];
  const open = async (project: { ref: string }, key: string) => {
    const ws = rawSocket(app.port, project.ref, key);
    sockets.push(ws);
    await opened(ws);
    return ws;
  };

  beforeAll(async () => {
    app = await startRealtimeApp();
    x = await app.project();
    y = await app.project();
  }, 120_000);
  afterAll(async () => {
    for (const ws of sockets) ws.terminate();
    await app?.close();
  }, 60_000);

  it('caps 1,000 sockets from one user at 100, closing the rest with a clear reason', async () => {
    const user = await sign(x.jwtSecret, { role: 'authenticated', sub: '00000000-0000-4000-8000-000000000001', ref: x.ref }, Math.floor(Date.now() / 1000) + 3600);
    const outcomes: { code: number; reason: string }[] = [];
    const kept: WebSocket[] = [];
    for (let batch = 0; batch < 10; batch += 1) {
      await Promise.all(
        Array.from({ length: 100 }, async () => {
          const ws = rawSocket(app.port, x.ref, user);
          sockets.push(ws);
          const end = closed(ws);
          await opened(ws);
          // A refused socket is closed right after it opens; an admitted one answers a heartbeat.
          const answered = nextFrame(ws, (f) => f[2] === 'phoenix').then(() => null);
          ws.send(JSON.stringify([null, 'h', 'phoenix', 'heartbeat', {}]));
          const first = await Promise.race([end, answered]);
          if (first === null) kept.push(ws);
          else outcomes.push(first);
        }),
      );
    }
    expect(kept).toHaveLength(100);
    expect(outcomes).toHaveLength(900);
    expect(new Set(outcomes.map((o) => `${o.code} ${o.reason}`))).toEqual(new Set(['4029 Too many realtime connections: at most 100 per user of a project']));
    expect(app.realtime.count(x.ref)).toBe(100);
    for (const ws of kept) ws.close();
    await Promise.all(kept.map((ws) => (ws.readyState === ws.CLOSED ? null : closed(ws))));
  });

  it('closes a socket that sends malformed frames (1007) and one whose frame is over the cap (1009); others carry on', async () => {
    const bystander = await open(x, x.anonKey);
    for (const frame of ['not json', '{"a":1}', '[1,2,3]', Buffer.from([9, 9, 9])]) {
      const ws = await open(x, x.anonKey);
      const end = closed(ws);
      ws.send(frame);
      const { code, reason } = await end;
      expect(code).toBe(1007);
      expect(reason).toMatch(/^Malformed/);
    }
    const big = await open(x, x.anonKey);
    const end = closed(big);
    big.send(JSON.stringify([null, '1', 'realtime:a', 'broadcast', { event: 'e', payload: 'x'.repeat(70 * 1024) }]));
    expect((await end).code).toBe(1009);
    bystander.send(JSON.stringify([null, 'hb', 'phoenix', 'heartbeat', {}]));
    expect(await nextFrame(bystander, replyTo('hb'))).toEqual([null, 'hb', 'phoenix', 'phx_reply', { status: 'ok', response: {} }]);
  });

  it('refuses another project’s key and a tampered key before the upgrade, and keeps projects’ topics apart', async () => {
    for (const key of [y.anonKey, `${x.anonKey.slice(0, -2)}xx`, 'not-a-jwt', '']) {
      const ws = rawSocket(app.port, x.ref, key);
      await expect(opened(ws)).rejects.toThrow('HTTP 401');
    }
    // The same topic name on two projects: a broadcast on X never reaches Y.
    const inX = await open(x, x.anonKey);
    const inY = await open(y, y.anonKey);
    const other = await open(x, x.anonKey);
    for (const [ws, ref] of [[inX, 'jx'], [inY, 'jy'], [other, 'jo']] as const) {
      ws.send(join('realtime:shared').replace('"1","1"', `"1","${ref}"`));
      expect((await nextFrame(ws, replyTo(ref)))[4]).toMatchObject({ status: 'ok' });
    }
    const received: string[] = [];
    inY.on('message', (_d, binary) => binary && received.push('y'));
    const atOther = new Promise<void>((resolve) => other.on('message', (_d, binary) => binary && resolve()));
    inX.send(JSON.stringify(['1', '2', 'realtime:shared', 'broadcast', { type: 'broadcast', event: 'e', payload: { n: 1 } }]));
    await atOther;
    // Y's socket gets its own heartbeat reply after anything X's broadcast could have sent it.
    inY.send(JSON.stringify([null, 'hb', 'phoenix', 'heartbeat', {}]));
    await nextFrame(inY, replyTo('hb'));
    expect(received).toEqual([]);
  });

  it('refuses tampered and expired access tokens on join, and closes a channel when its token expires', async () => {
    const ws = await open(x, x.anonKey);
    const now = Math.floor(Date.now() / 1000);
    const good = await sign(x.jwtSecret, { role: 'authenticated', sub: '00000000-0000-4000-8000-000000000002', ref: x.ref }, now + 3600);
    const tampered = `${good.split('.')[0]}.${Buffer.from(JSON.stringify({ role: 'authenticated', sub: 'someone-else', ref: x.ref, exp: now + 3600 })).toString('base64url')}.${good.split('.')[2]}`;
    ws.send(join('realtime:t1', { access_token: tampered }).replace('"1","1"', '"1","a"'));
    expect((await nextFrame(ws, replyTo('a')))[4]).toEqual({ status: 'error', response: { reason: 'JWT could not be verified' } });
    const expired = await sign(x.jwtSecret, { role: 'authenticated', sub: '00000000-0000-4000-8000-000000000002', ref: x.ref }, now - 10);
    ws.send(join('realtime:t2', { access_token: expired }).replace('"1","1"', '"1","b"'));
    expect((await nextFrame(ws, replyTo('b')))[4]).toEqual({ status: 'error', response: { reason: 'Token has expired' } });
    const foreign = await sign(y.jwtSecret, { role: 'authenticated', sub: '00000000-0000-4000-8000-000000000002', ref: y.ref }, now + 3600);
    ws.send(join('realtime:t3', { access_token: foreign }).replace('"1","1"', '"1","c"'));
    expect((await nextFrame(ws, replyTo('c')))[4]).toMatchObject({ status: 'error' });
    // Joined with a token that expires in 2 s: the channel gets Supabase's system error, then phx_close.
    const short = await sign(x.jwtSecret, { role: 'authenticated', sub: '00000000-0000-4000-8000-000000000002', ref: x.ref }, now + 2);
    ws.send(join('realtime:t4', { access_token: short }).replace('"1","1"', '"1","d"'));
    expect((await nextFrame(ws, replyTo('d')))[4]).toMatchObject({ status: 'ok' });
    // Both listen from now: the two frames may arrive in one read.
    const system = nextFrame(ws, (f) => f[2] === 'realtime:t4' && f[3] === 'system');
    const closing = nextFrame(ws, (f) => f[2] === 'realtime:t4' && f[3] === 'phx_close');
    expect((await system)[4]).toMatchObject({ status: 'error', message: 'Token has expired' });
    await closing;
    // The channel is gone: a push to it is "unmatched topic".
    ws.send(JSON.stringify(['1', 'e', 'realtime:t4', 'presence', { type: 'presence', event: 'track', payload: {} }]));
    expect((await nextFrame(ws, replyTo('e')))[4]).toEqual({ status: 'error', response: { reason: 'unmatched topic' } });
  });

  it('answers bad topics, bad filters, private channels and unknown events with a reason', async () => {
    const ws = await open(x, x.anonKey);
    const cases: [string, Record<string, unknown>, string][] = [
      ['no-prefix', {}, 'A channel topic must start with "realtime:"'],
      ['realtime:ok', { config: { postgres_changes: [{ event: '*', schema: 'auth', table: 'users' }] } }, 'Only the public schema has postgres_changes'],
      ['realtime:ok', { config: { postgres_changes: [{ event: '*', schema: 'public', table: 'messages', filter: 'id=like.1' }] } }, 'Unsupported filter operator: like; use one of eq, neq, lt, lte, gt, gte, in'],
      ['realtime:ok', { config: { private: true } }, 'Private channels (realtime.messages policies) are not available; join without private: true'],
    ];
    for (const [i, [topic, payload, reason]] of cases.entries()) {
      ws.send(JSON.stringify(['1', `r${i}`, topic, 'phx_join', payload]));
      expect((await nextFrame(ws, replyTo(`r${i}`)))[4]).toEqual({ status: 'error', response: { reason } });
    }
    ws.send(JSON.stringify(['1', 'j', 'realtime:fine', 'phx_join', {}]));
    await nextFrame(ws, replyTo('j'));
    ws.send(JSON.stringify(['1', 'u', 'realtime:fine', 'whatever', {}]));
    expect((await nextFrame(ws, replyTo('u')))[4]).toEqual({ status: 'error', response: { reason: 'Unknown event: whatever' } });
  });

  it('answers plain HTTP with 426, other paths with 404 and other protocol versions with 400', async () => {
    const http = await loopbackFetch(`http://${x.ref}.data.localhost:${app.port}/realtime/v1/websocket`);
    expect(http.status).toBe(426);
    expect(await http.json()).toMatchObject({ code: 'REALTIME.UPGRADE_REQUIRED' });
    const wrongPath = new (rawSocket(app.port, x.ref, x.anonKey).constructor as typeof WebSocket)(`ws://${x.ref}.data.localhost:${app.port}/realtime/v1/other?apikey=${x.anonKey}`);
    await expect(opened(wrongPath)).rejects.toThrow('HTTP 404');
    const v1 = new (rawSocket(app.port, x.ref, x.anonKey).constructor as typeof WebSocket)(`ws://${x.ref}.data.localhost:${app.port}/realtime/v1/websocket?apikey=${x.anonKey}&vsn=1.0.0`);
    await expect(opened(v1)).rejects.toThrow('HTTP 400');
    const restUpgrade = new (rawSocket(app.port, x.ref, x.anonKey).constructor as typeof WebSocket)(`ws://${x.ref}.data.localhost:${app.port}/rest/v1/websocket`);
    await expect(opened(restUpgrade)).rejects.toThrow('HTTP 404');
  });

  it('closes a project’s sockets when its database is deleted', async () => {
    const ws = await open(y, y.anonKey);
    const end = closed(ws);
    await app.t.http().delete(`/database/${y.projectId}?deleteFromProvider=true`).set(y.owner.auth).expect(200);
    expect(await end).toEqual({ code: 4004, reason: 'The project database is no longer available' });
    await expect(opened(rawSocket(app.port, y.ref, y.anonKey))).rejects.toThrow('HTTP 404');
  });
});

describe('Realtime idle sockets (e2e, local PostgreSQL)', () => {
  let app: RealtimeApp;
  beforeAll(async () => {
    app = await startRealtimeApp({ limits: { idleMs: 400 } });
  }, 120_000);
  afterAll(async () => {
    await app?.close();
  }, 60_000);

  it('closes a socket that sends nothing for the idle time, and keeps one that heartbeats', async () => {
    const p = await app.project();
    const silent = rawSocket(app.port, p.ref, p.anonKey);
    const talking = rawSocket(app.port, p.ref, p.anonKey);
    await opened(silent);
    await opened(talking);
    const end = closed(silent);
    let talkingClosed = false;
    talking.on('close', () => (talkingClosed = true));
    const beat = setInterval(() => talking.send(JSON.stringify([null, 'hb', 'phoenix', 'heartbeat', {}])), 100);
    try {
      expect(await end).toEqual({ code: 4000, reason: 'No message for 0.4 s: send heartbeats to stay connected' });
      expect(talkingClosed).toBe(false);
    } finally {
      clearInterval(beat);
      talking.terminate();
    }
  });
});
