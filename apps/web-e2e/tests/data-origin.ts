import { request as httpRequest } from 'node:http';
import { type APIRequestContext, expect } from '@playwright/test';
import { type SupabaseClient, createClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import { codeFromOutbox, newEmail } from './helpers';

// Node-side helpers for a project's data origin (`http://{ref}.data.localhost:PORT`) on the
// product `npm start` runs: no browser, the real @supabase/supabase-js and Kiln's public routes.

/**
 * fetch for `*.data.localhost`, which Node's resolver may not know: every request goes to
 * 127.0.0.1 with the URL's Host header (what a browser would send). Only string bodies are
 * sent (all supabase-js sends); anything else throws rather than being dropped.
 */
export function loopbackFetch(input: string | URL | Request, init: RequestInit = {}): Promise<Response> {
  const url = new URL(typeof input === 'string' || input instanceof URL ? input.toString() : input.url);
  const headers = new Headers(init.headers ?? (input instanceof Request ? input.headers : undefined));
  const method = init.method ?? 'GET';
  if (init.body !== undefined && init.body !== null && typeof init.body !== 'string') return Promise.reject(new Error('loopbackFetch sends string bodies only'));
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: url.port, path: `${url.pathname}${url.search}`, method, headers: { ...Object.fromEntries(headers), host: url.host } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const out = new Headers();
        for (const [name, value] of Object.entries(res.headers)) if (value !== undefined) out.set(name, Array.isArray(value) ? value.join(', ') : value);
        const status = res.statusCode ?? 500;
        const noBody = status === 204 || status === 304 || method === 'HEAD';
        resolve(new Response(noBody ? null : Buffer.concat(chunks), { status, statusText: res.statusMessage ?? '', headers: out }));
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    if (typeof init.body === 'string') req.write(init.body);
    req.end();
  });
}

/** `ws` to 127.0.0.1 with the data origin's Host (Node does not resolve `*.localhost`; a browser does). */
export class LoopbackWebSocket extends WebSocket {
  constructor(address: string | URL, protocols?: string | string[]) {
    const url = new URL(address.toString());
    const host = url.host;
    url.hostname = '127.0.0.1';
    super(url.toString(), protocols, { headers: { host } });
  }
}

/** supabase-js for a data origin: session in memory only, the ws transport Node 20 needs (NOTES.md), both on loopback. */
export function dataClient(url: string, anonKey: string): SupabaseClient {
  return createClient(url, anonKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    global: { fetch: loopbackFetch },
    realtime: { transport: LoopbackWebSocket as never },
  });
}

/** A new Kiln account through Kiln's `/auth/v1` and the dev outbox; the headers of its session. */
export async function kilnAccount(request: APIRequestContext, label: string): Promise<Record<string, string>> {
  const email = newEmail(label);
  const version = { 'X-Supabase-Api-Version': '2024-01-01' };
  const signUp = await request.post('/auth/v1/signup', { headers: version, data: { email, password: 'correct horse battery' } });
  expect(signUp.status()).toBeLessThan(300);
  const token = await codeFromOutbox(request, email);
  const verified = await request.post('/auth/v1/verify', { headers: version, data: { type: 'signup', email, token } });
  expect(verified.status()).toBe(200);
  const auth = { authorization: `Bearer ${((await verified.json()) as { access_token: string }).access_token}` };
  expect((await request.get('/api/profile', { headers: auth })).status()).toBe(200);
  return auth;
}

/** A project of the account with a provisioned database: its data origin and anon key. */
export async function projectWithDatabase(request: APIRequestContext, auth: Record<string, string>, name: string): Promise<{ id: string; ref: string; url: string; anonKey: string }> {
  const created = await request.post('/api/projects', { headers: auth, data: { name } });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  expect((await request.post(`/api/sandbox/${id}/ensure`, { headers: auth })).status()).toBe(200);
  const provisioned = await request.post('/api/db/provision', { headers: auth, data: { project_id: id } });
  expect(provisioned.status()).toBe(200);
  const body = (await provisioned.json()) as { ref: string; url: string; anon_key: string };
  return { id, ref: body.ref, url: body.url, anonKey: body.anon_key };
}

/** Writes a migration into the project through the files API and applies it; the names applied. */
export async function applyMigration(request: APIRequestContext, auth: Record<string, string>, projectId: string, name: string, sql: string): Promise<string[]> {
  const written = await request.post(`/api/sandbox/${projectId}/write-file`, { headers: auth, data: { path: `supabase/migrations/${name}`, content: sql } });
  expect(written.status()).toBe(200);
  const migrated = await request.post(`/api/db/migrate/${projectId}`, { headers: auth });
  expect(migrated.status(), await migrated.text()).toBe(200);
  return ((await migrated.json()) as { applied: string[] }).applied;
}
