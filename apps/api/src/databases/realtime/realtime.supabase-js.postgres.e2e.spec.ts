import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { RealtimePostgresChangesPayload } from '@supabase/supabase-js';
import pg from 'pg';
import { Inbox, type RealtimeApp, adminUrl, startRealtimeApp, subscribed } from './testing/realtime-harness.js';

jest.setTimeout(60_000);

type Row = { id: number; room: string; body: string; visible: boolean };

/**
 * Issue 18's bar for realtime: supabase-js's `.channel` (realtime-js 2.109.0) against the real
 * API app with project databases on the real PostgreSQL — postgres_changes with row-level
 * security, filters, updates and deletes, broadcast (binary frames) and presence between two
 * clients, and a reconnect after the server drops the socket.
 */
describe('Realtime through @supabase/supabase-js (e2e, local PostgreSQL)', () => {
  let app: RealtimeApp;
  let ref: string;
  let anonKey: string;

  beforeAll(async () => {
    app = await startRealtimeApp();
    ({ ref, anonKey } = await app.project());
    await app.asOwner(
      ref,
      `CREATE TABLE public.messages (id serial PRIMARY KEY, room text NOT NULL, body text NOT NULL, visible boolean NOT NULL DEFAULT true);
       CREATE POLICY anon_reads_visible ON public.messages FOR SELECT TO anon USING (visible);
       CREATE POLICY anon_writes ON public.messages FOR INSERT TO anon WITH CHECK (true);
       CREATE POLICY anon_updates ON public.messages FOR UPDATE TO anon USING (true) WITH CHECK (true);
       CREATE POLICY anon_deletes ON public.messages FOR DELETE TO anon USING (true);
       -- the policies read the row: a DELETE/UPDATE through the API needs SELECT on it too
       CREATE POLICY anon_reads_for_writes ON public.messages FOR SELECT TO anon USING (room = 'writes');
       CREATE TABLE public.notes (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), user_id uuid NOT NULL DEFAULT auth.uid(), body text NOT NULL);
       CREATE POLICY own_notes ON public.notes FOR ALL TO authenticated USING (user_id = auth.uid()) WITH CHECK (user_id = auth.uid());`,
    );
  }, 120_000);
  afterAll(async () => {
    await app?.close();
  }, 60_000);

  it('subscribed → an insert by another client arrives; a row hidden by RLS never arrives', async () => {
    const listener = app.client(ref, anonKey);
    const writer = app.client(ref, anonKey);
    const inbox = new Inbox<RealtimePostgresChangesPayload<Row>>();
    const channel = listener.channel('db-messages').on<Row>('postgres_changes', { event: 'INSERT', schema: 'public', table: 'messages' }, inbox.push);
    await subscribed(channel);

    // Inserted in this order, committed in this order: the hidden row is handled before the visible
    // one. (The hidden one by the owner's SQL: the data API's insert reads its row back, which RLS refuses.)
    await app.asOwner(ref, `INSERT INTO public.messages (room, body, visible) VALUES ('a', 'secret', false)`);
    expect((await writer.from('messages').insert({ room: 'a', body: 'hello', visible: true })).error).toBeNull();
    const [first] = await inbox.count(1);
    expect(first).toMatchObject({ schema: 'public', table: 'messages', eventType: 'INSERT', new: { room: 'a', body: 'hello', visible: true }, old: {} });
    expect(first!.commit_timestamp).toEqual(expect.any(String));
    // One more visible insert: everything before it has been handled, and the secret never came.
    await writer.from('messages').insert({ room: 'a', body: 'again' });
    const all = await inbox.count(2);
    expect(all.map((p) => (p.new as Row).body)).toEqual(['hello', 'again']);
    await listener.removeChannel(channel);
  });

  it('applies filters (eq, in) and the event, and sends updates and deletes (a delete only its key)', async () => {
    const listener = app.client(ref, anonKey);
    const writer = app.client(ref, anonKey);
    const inRoom = new Inbox<RealtimePostgresChangesPayload<Row>>();
    const everything = new Inbox<RealtimePostgresChangesPayload<Row>>();
    const channel = listener
      .channel('filtered')
      .on<Row>('postgres_changes', { event: 'INSERT', schema: 'public', table: 'messages', filter: 'room=eq.writes' }, inRoom.push)
      .on<Row>('postgres_changes', { event: '*', schema: 'public', table: 'messages', filter: 'room=in.(writes,other)' }, everything.push);
    await subscribed(channel);
    await writer.from('messages').insert({ room: 'elsewhere', body: 'not for us' });
    const inserted = await writer.from('messages').insert({ room: 'writes', body: 'first' }).select().single();
    expect(inserted.error).toBeNull();
    const id = (inserted.data as Row).id;
    await inRoom.count(1);
    expect(inRoom.items[0]).toMatchObject({ eventType: 'INSERT', new: { id, room: 'writes', body: 'first' } });
    expect((await writer.from('messages').update({ body: 'edited' }).eq('id', id)).error).toBeNull();
    expect((await writer.from('messages').delete().eq('id', id)).error).toBeNull();
    const seen = await everything.count(3);
    expect(seen.map((p) => p.eventType)).toEqual(['INSERT', 'UPDATE', 'DELETE']);
    expect(seen[1]).toMatchObject({ new: { id, body: 'edited' }, old: { id } });
    expect(seen[2]).toMatchObject({ new: {}, old: { id } });
    expect(Object.keys(seen[2]!.old)).toEqual(['id']);
    expect(inRoom.items).toHaveLength(1);
    await listener.removeChannel(channel);
  });

  it('carries broadcasts between two clients as binary frames, without self unless asked, with acks', async () => {
    const a = app.client(ref, anonKey);
    const b = app.client(ref, anonKey);
    const toA = new Inbox<{ event: string; payload: unknown }>();
    const toB = new Inbox<{ event: string; payload: unknown }>();
    const chA = a.channel('room-1', { config: { broadcast: { self: false, ack: true } } }).on('broadcast', { event: '*' }, toA.push);
    const chB = b.channel('room-1', { config: { broadcast: { self: true } } }).on('broadcast', { event: 'cursor' }, toB.push);
    await subscribed(chA);
    await subscribed(chB);
    expect(await chA.send({ type: 'broadcast', event: 'cursor', payload: { x: 1, who: 'ä' } })).toBe('ok');
    expect(await chB.send({ type: 'broadcast', event: 'cursor', payload: { x: 2 } })).toBe('ok');
    const atB = await toB.count(2);
    expect(atB.map((m) => m.payload)).toEqual([{ x: 1, who: 'ä' }, { x: 2 }]);
    const atA = await toA.count(1);
    expect(atA).toEqual([{ type: 'broadcast', event: 'cursor', payload: { x: 2 } }]);
    // Too big for the fan-out: refused (an ack'd send answers error), nobody gets it.
    expect(await chA.send({ type: 'broadcast', event: 'cursor', payload: { big: 'x'.repeat(9000) } })).toBe('error');
    await a.removeChannel(chA);
    await b.removeChannel(chB);
  });

  it('takes broadcasts over REST (httpSend, and send() before joining) to the channel’s subscribers', async () => {
    const listener = app.client(ref, anonKey);
    const sender = app.client(ref, anonKey);
    const got = new Inbox<{ event: string; payload: unknown }>();
    const channel = listener.channel('rest-room').on('broadcast', { event: '*' }, got.push);
    await subscribed(channel);
    const outside = sender.channel('rest-room');
    expect(await outside.httpSend('note', { via: 'httpSend' })).toEqual({ success: true });
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      expect(await outside.send({ type: 'broadcast', event: 'note', payload: { via: 'send' } })).toBe('ok');
    } finally {
      warn.mockRestore();
    }
    expect((await got.count(2)).map((m) => m.payload)).toEqual([{ via: 'httpSend' }, { via: 'send' }]);
    // Another project's key is refused.
    const foreign = app.client(ref, 'not-a-key').channel('rest-room');
    await expect(foreign.httpSend('note', { x: 1 })).rejects.toThrow('JWT could not be verified');
    await listener.removeChannel(channel);
    await sender.removeChannel(outside);
  });

  it('shows presence across two clients: joins, state and leaves', async () => {
    const a = app.client(ref, anonKey);
    const b = app.client(ref, anonKey);
    const chA = a.channel('lobby', { config: { presence: { key: 'ana' } } });
    const syncs = new Inbox<Record<string, unknown[]>>();
    const leaves = new Inbox<string>();
    chA.on('presence', { event: 'sync' }, () => syncs.push(chA.presenceState())).on('presence', { event: 'leave' }, ({ key }) => leaves.push(key));
    await subscribed(chA);
    expect(await chA.track({ name: 'Ana' })).toBe('ok');
    const chB = b.channel('lobby', { config: { presence: { key: 'bo' } } });
    chB.on('presence', { event: 'sync' }, () => {});
    await subscribed(chB);
    expect(await chB.track({ name: 'Bo' })).toBe('ok');
    const both = await new Promise<Record<string, unknown[]>>((resolve) => {
      const check = () => {
        const s = chA.presenceState();
        if (s['ana'] && s['bo']) resolve(s);
      };
      check();
      chA.on('presence', { event: 'sync' }, check);
    });
    expect(both['bo']).toEqual([expect.objectContaining({ name: 'Bo', presence_ref: expect.any(String) })]);
    expect(chB.presenceState()['ana']).toEqual([expect.objectContaining({ name: 'Ana' })]);
    await b.removeChannel(chB);
    expect(await leaves.count(1)).toEqual(['bo']);
    expect(chA.presenceState()['bo']).toBeUndefined();
    await a.removeChannel(chA);
  });

  it('goes through the channel states closed → joining → joined → leaving → closed, and errored when a join is refused', async () => {
    const c = app.client(ref, anonKey);
    const channel = c.channel('states');
    expect(channel.state).toBe('closed');
    const joined = subscribed(channel);
    expect(channel.state).toBe('joining');
    await joined;
    expect(channel.state).toBe('joined');
    // realtime-js (phoenix) is `leaving` only inside leave(): once not joined it cannot push, so it
    // settles the leave at once and closes; the server gets the phx_leave and drops the channel.
    // The states phoenix's channel (inside realtime-js) passes through, recorded as they are set.
    const states: string[] = [];
    const inner = (channel as unknown as { channelAdapter: { channel: { state: string } } }).channelAdapter.channel;
    let current = inner.state;
    Object.defineProperty(inner, 'state', { configurable: true, get: () => current, set: (v: string) => void states.push((current = v)) });
    expect(await channel.unsubscribe()).toBe('ok');
    expect(channel.state).toBe('closed');
    expect(states[0]).toBe('leaving');
    // A join the server refuses (a filter it does not know): errored, with the server's reason.
    const refused = c.channel('refused').on('postgres_changes', { event: '*', schema: 'public', table: 'messages', filter: 'body=like.x' }, () => {});
    await expect(subscribed(refused)).rejects.toThrow('Unsupported filter operator: like; use one of eq, neq, lt, lte, gt, gte, in');
    expect(refused.state).toBe('errored');
    await c.removeChannel(refused);
  });

  it('re-reads changes as each signed-in user: A gets A’s rows only, and a refreshed access token keeps working', async () => {
    const a = app.client(ref, anonKey);
    const b = app.client(ref, anonKey);
    const stamp = Date.now().toString(36);
    const signedA = await a.auth.signUp({ email: `a-${stamp}@example.com`, password: 'user a password' });
    const signedB = await b.auth.signUp({ email: `b-${stamp}@example.com`, password: 'user b password' });
    expect(signedA.error).toBeNull();
    expect(signedB.error).toBeNull();
    // supabase-js hands the session's token to realtime; the join carries it as access_token.
    await a.realtime.setAuth(signedA.data.session!.access_token);
    const inbox = new Inbox<RealtimePostgresChangesPayload<{ id: string; user_id: string; body: string }>>();
    const channel = a.channel('notes').on<{ id: string; user_id: string; body: string }>('postgres_changes', { event: 'INSERT', schema: 'public', table: 'notes' }, inbox.push);
    await subscribed(channel);
    expect((await b.from('notes').insert({ body: 'b’s private note' })).error).toBeNull();
    expect((await a.from('notes').insert({ body: 'a’s note' })).error).toBeNull();
    const [first] = await inbox.count(1);
    expect(first!.new).toMatchObject({ body: 'a’s note', user_id: signedA.data.user!.id });
    // A new token for the same user (a refresh): pushed to the joined channel, changes keep coming.
    const refreshed = await a.auth.refreshSession({ refresh_token: signedA.data.session!.refresh_token });
    expect(refreshed.error).toBeNull();
    await a.realtime.setAuth(refreshed.data.session!.access_token);
    expect((await b.from('notes').insert({ body: 'b again' })).error).toBeNull();
    expect((await a.from('notes').insert({ body: 'a again' })).error).toBeNull();
    const both = await inbox.count(2);
    expect(both.map((p) => (p.new as { body: string }).body)).toEqual(['a’s note', 'a again']);
    await a.removeChannel(channel);
  });

  it('reconnects after the server drops the socket and gets changes again', async () => {
    const listener = app.client(ref, anonKey);
    const writer = app.client(ref, anonKey);
    const inbox = new Inbox<RealtimePostgresChangesPayload<Row>>();
    const statuses = new Inbox<string>();
    const channel = listener.channel('reconnect').on<Row>('postgres_changes', { event: 'INSERT', schema: 'public', table: 'messages', filter: 'room=eq.reconnect' }, inbox.push);
    // realtime-js's defaults against this server: 10 s timeout, reconnect after 1, 2, 5, then 10 s.
    expect(listener.realtime.timeout).toBe(10_000);
    expect([1, 2, 3, 4, 5].map((n) => listener.realtime.reconnectAfterMs(n))).toEqual([1000, 2000, 5000, 10_000, 10_000]);
    channel.subscribe((status) => statuses.push(status));
    await statuses.count(1);
    expect(statuses.items[0]).toBe('SUBSCRIBED');
    expect(app.realtime.count(ref)).toBeGreaterThan(0);
    // The server drops every socket of the project (as when its database is detached and reattached).
    await app.realtime.forget(ref);
    // realtime-js reconnects (1 s) and joins again: SUBSCRIBED a second time.
    await new Promise<void>((resolve) => {
      const check = () => (statuses.items.filter((s) => s === 'SUBSCRIBED').length >= 2 ? resolve() : setTimeout(check, 100));
      check();
    });
    await writer.from('messages').insert({ room: 'reconnect', body: 'after' });
    expect((await inbox.count(1))[0]).toMatchObject({ new: { room: 'reconnect', body: 'after' } });
    await listener.removeChannel(channel);
  });

  it('joins again and gets changes after the project database’s LISTEN connection is lost', async () => {
    const listener = app.client(ref, anonKey);
    const writer = app.client(ref, anonKey);
    const inbox = new Inbox<RealtimePostgresChangesPayload<Row>>();
    const statuses = new Inbox<string>();
    const channel = listener.channel('listen-lost').on<Row>('postgres_changes', { event: 'INSERT', schema: 'public', table: 'messages', filter: 'room=eq.lost' }, inbox.push);
    channel.subscribe((status) => statuses.push(status));
    await statuses.count(1);
    // The server restarted, or an operator killed the backend: the API's LISTEN connection ends.
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    try {
      const killed = await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND query = 'LISTEN kiln_realtime'`, [`kiln_app_${ref}`]);
      expect(killed.rowCount).toBeGreaterThan(0);
    } finally {
      await admin.end();
    }
    // The channel errors (phx_error) and realtime-js joins it again: SUBSCRIBED a second time.
    const again = await statuses.count(3);
    expect(again.slice(0, 3)).toEqual(['SUBSCRIBED', 'CHANNEL_ERROR', 'SUBSCRIBED']);
    await writer.from('messages').insert({ room: 'lost', body: 'after the drop' });
    expect((await inbox.count(1))[0]).toMatchObject({ new: { room: 'lost', body: 'after the drop' } });
    await listener.removeChannel(channel);
  });
});
