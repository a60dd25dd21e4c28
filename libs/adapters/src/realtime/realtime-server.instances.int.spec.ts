import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DataApiTarget } from '@kiln/domain';
import { RealtimeClient, type RealtimeChannel } from '@supabase/realtime-js';
import { SignJWT } from 'jose';
import WebSocket from 'ws';
import { PgDataApi } from '../databases/pg-data-api.js';
import { DEFAULT_TEST_DATABASE_URL } from '../postgres/testing/test-database.js';
import { PgChangeFeed } from './pg-change-feed.js';
import { PgRealtimeFanout } from './pg-realtime-fanout.js';
import { RealtimeServer } from './realtime-server.js';

const url = process.env['DATABASE_URL'] ?? DEFAULT_TEST_DATABASE_URL;
const REF = 'rrrrrrrrrrrrrrrrrrrr';
const SECRET = 'a-secret-of-this-test-project-0123456789';

interface Instance {
  readonly server: Server;
  readonly realtime: RealtimeServer;
  readonly fanout: PgRealtimeFanout;
  readonly port: number;
}

/** One API instance: an HTTP server whose upgrades go to a RealtimeServer on the shared PostgreSQL fanout. */
async function instance(name: string): Promise<Instance> {
  const target: DataApiTarget = { ref: REF, ownerId: 'owner', jwtSecret: SECRET, maxConnections: 1, connection: { host: '127.0.0.1', port: 1, database: 'none', user: 'none', password: 'none' } };
  const fanout = new PgRealtimeFanout({ url });
  const api = new PgDataApi();
  const realtime = new RealtimeServer({ targets: { findByRef: async (ref) => (ref === REF ? target : null) }, fanout, changes: new PgChangeFeed(api), instanceId: name });
  const server = createServer((_req, res) => res.writeHead(404).end());
  server.on('upgrade', (req, socket, head) => realtime.upgrade(REF, req, socket, head));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, realtime, fanout, port: (server.address() as AddressInfo).port };
}

function subscribed(channel: RealtimeChannel): Promise<void> {
  return new Promise((resolve, reject) => channel.subscribe((status, err) => (status === 'SUBSCRIBED' ? resolve() : status !== 'CLOSED' && reject(err ?? new Error(status)))));
}

/** Two API instances sharing one PostgreSQL: realtime-js clients on either see each other's broadcasts and presence. */
describe('RealtimeServer across two instances (PgRealtimeFanout)', () => {
  let one: Instance;
  let two: Instance;
  let anonKey: string;
  const clients: RealtimeClient[] = [];
  const client = (i: Instance) => {
    const c = new RealtimeClient(`ws://127.0.0.1:${i.port}/realtime/v1`, { params: { apikey: anonKey }, transport: WebSocket as never });
    clients.push(c);
    return c;
  };

  beforeAll(async () => {
    anonKey = await new SignJWT({ role: 'anon', ref: REF, iss: 'kiln' }).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode(SECRET));
    one = await instance('instance-one');
    two = await instance('instance-two');
  });
  afterAll(async () => {
    for (const c of clients) c.disconnect();
    for (const i of [one, two]) {
      await i?.realtime.close();
      await i?.fanout.close();
      await new Promise((resolve) => i?.server.close(resolve));
    }
  });

  it('delivers each instance’s broadcasts to the other’s clients (binary frames)', async () => {
    const topic = `room-${Date.now()}`;
    const atTwo: unknown[] = [];
    const atOne: unknown[] = [];
    let gotTwo: () => void = () => {};
    let gotOne: () => void = () => {};
    const arrivedTwo = new Promise<void>((r) => (gotTwo = r));
    const arrivedOne = new Promise<void>((r) => (gotOne = r));
    const a = client(one).channel(topic).on('broadcast', { event: 'msg' }, (m) => (atOne.push(m.payload), gotOne()));
    const b = client(two).channel(topic).on('broadcast', { event: 'msg' }, (m) => (atTwo.push(m.payload), gotTwo()));
    await subscribed(a);
    await subscribed(b);
    await a.send({ type: 'broadcast', event: 'msg', payload: { from: 'one', text: 'grüß' } });
    await arrivedTwo;
    await b.send({ type: 'broadcast', event: 'msg', payload: { from: 'two' } });
    await arrivedOne;
    expect(atTwo).toEqual([{ from: 'one', text: 'grüß' }]);
    expect(atOne).toEqual([{ from: 'two' }]);
  });

  it('shares presence: a client joining later on the other instance gets the state, and leaves travel', async () => {
    const topic = `lobby-${Date.now()}`;
    const a = client(one).channel(topic, { config: { presence: { key: 'ana' } } });
    a.on('presence', { event: 'sync' }, () => {});
    await subscribed(a);
    expect(await a.track({ at: 'one' })).toBe('ok');
    const b = client(two).channel(topic, { config: { presence: { key: 'bo' } } });
    const seen = new Promise<void>((resolve) => b.on('presence', { event: 'sync' }, () => b.presenceState()['ana'] && resolve()));
    const left = new Promise<void>((resolve) => b.on('presence', { event: 'leave' }, ({ key }) => key === 'ana' && resolve()));
    await subscribed(b);
    // Instance two had no client on the topic: its join asks the others, who announce Ana again.
    await seen;
    expect(b.presenceState()['ana']).toEqual([expect.objectContaining({ at: 'one' })]);
    await a.untrack();
    await left;
    expect(b.presenceState()['ana']).toBeUndefined();
  });
});
