// Issue 18 item 3 over HTTP (on PostgreSQL by default, see testing/e2e.ts): files attached to
// prompts are stored under the project, read back by the owner only, refused in words when too
// big, of another type or not what they claim, carried by a turn into the sandbox and to the
// assistant, and deleted with their project.
import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ATTACHMENT_MAX_BYTES, attachmentObjectKey } from '@kiln/domain';
import { InMemoryObjectStore, InMemorySandboxHost } from '@kiln/domain/testing';
import { type TestApp, type TestUser, newUser, startTestApp } from '../testing/e2e.js';
import { postStream } from '../ai/testing/post-sse.js';
import { ScriptedAiAssistant } from '../ai/testing/scripted-ai-assistant.js';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.cookie)</script></svg>');

describe('attachments API (HTTP)', () => {
  let t: TestApp;
  let store: InMemoryObjectStore;
  let host: InMemorySandboxHost;
  let assistant: ScriptedAiAssistant;

  beforeAll(async () => {
    store = new InMemoryObjectStore();
    host = new InMemorySandboxHost();
    assistant = new ScriptedAiAssistant();
    t = await startTestApp({ overrides: { objectStore: store, sandboxHost: host, aiAssistant: assistant } });
  });
  afterAll(async () => {
    await t.close();
  });

  const ready = async (): Promise<{ user: TestUser; id: string }> => {
    const user = newUser();
    const response = await t.http().post('/api/projects').set(user.auth).send({ name: 'Pantry' });
    expect(response.status).toBe(201);
    return { user, id: response.body.id as string };
  };
  const upload = (user: TestUser, projectId: string, bytes: Buffer, type: string, name = 'logo.png') =>
    t.http().post(`/api/projects/${projectId}/attachments`).set(user.auth).set('Content-Type', type).set('X-File-Name', encodeURIComponent(name)).send(bytes);

  it('stores an image under the project and gives it back to its owner, never to anyone else', async () => {
    const { user, id } = await ready();
    const created = await upload(user, id, PNG, 'image/png', 'Our Logo ✨.png');
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'Our Logo ✨.png',
      file_name: expect.stringMatching(/^our-logo-[0-9a-f]{8}\.png$/),
      path: expect.stringMatching(/^\/attachments\/our-logo-[0-9a-f]{8}\.png$/),
      content_type: 'image/png',
      size: PNG.length,
      created_at: expect.any(String),
    });
    expect((await store.get(attachmentObjectKey(id, created.body.id)))?.bytes.length).toBe(PNG.length);
    const read = await t.http().get(`/api/projects/${id}/attachments/${created.body.id}`).set(user.auth).buffer(true);
    expect(read.status).toBe(200);
    expect(read.headers['content-type']).toBe('image/png');
    expect(Buffer.compare(read.body as Buffer, PNG)).toBe(0);

    const stranger = newUser();
    expect((await t.http().get(`/api/projects/${id}/attachments/${created.body.id}`).set(stranger.auth)).status).toBe(404);
    expect((await upload(stranger, id, PNG, 'image/png')).status).toBe(404);
    expect((await t.http().get(`/api/projects/${id}/attachments/not-a-uuid`).set(user.auth)).status).toBe(404);
    expect((await t.http().get(`/api/projects/${id}/attachments/00000000-0000-4000-8000-000000000000`).set(user.auth)).body.code).toBe('ATTACHMENTS.NOT_FOUND');
  });

  it('cleans hostile names: paths, NUL, bidi tricks; a 4 kB name is refused', async () => {
    const { user, id } = await ready();
    const climbing = await upload(user, id, PNG, 'image/png', '../../etc/passwd\u0000.png');
    expect(climbing.status).toBe(201);
    expect(climbing.body.name).toBe('passwd.png');
    expect(climbing.body.file_name).toMatch(/^passwd-[0-9a-f]{8}\.png$/);
    const bidi = await upload(user, id, PNG, 'image/png', 'invoice\u202egnp.exe');
    expect(bidi.body.name).toBe('invoicegnp.exe');
    expect(bidi.body.file_name).toMatch(/^invoicegnp-[0-9a-f]{8}\.png$/);
    const long = await upload(user, id, PNG, 'image/png', `${'a'.repeat(4096)}.png`);
    expect(long.status).toBe(400);
    expect(long.body.code).toBe('ATTACHMENTS.INVALID');
  });

  it('keeps an SVG but serves it as a download in a sandbox, never as a page', async () => {
    const { user, id } = await ready();
    const created = await upload(user, id, SVG, 'image/svg+xml', 'evil.svg');
    expect(created.status).toBe(201);
    const read = await t.http().get(`/api/projects/${id}/attachments/${created.body.id}`).set(user.auth);
    expect(read.headers['content-disposition']).toMatch(/^attachment;/);
    expect(read.headers['content-security-policy']).toContain('sandbox');
    expect(read.headers['x-content-type-options']).toBe('nosniff');
  });

  it('refuses, in words, a file too big (413), of another type (415), not what it claims (415), empty or unnamed (400)', async () => {
    const { user, id } = await ready();
    const big = await upload(user, id, Buffer.concat([PNG, Buffer.alloc(ATTACHMENT_MAX_BYTES)]), 'image/png');
    expect(big.status).toBe(413);
    expect(big.body).toMatchObject({ code: 'ATTACHMENTS.TOO_LARGE', detail: 'A file may be at most 10 MB.' });
    const exe = await upload(user, id, Buffer.from('MZ\x90\x00'), 'application/x-msdownload', 'setup.exe');
    expect(exe.status).toBe(415);
    expect(exe.body.detail).toMatch(/Only images/);
    expect((await upload(user, id, Buffer.from('<html>hi</html>'), 'image/png')).status).toBe(415);
    expect((await upload(user, id, Buffer.from('{"a":1}'), 'application/json')).status).toBe(415);
    expect((await t.http().post(`/api/projects/${id}/attachments`).set(user.auth).set('Content-Type', 'image/png').set('X-File-Name', 'x.png')).body.code).toBe('ATTACHMENTS.INVALID');
    expect((await t.http().post(`/api/projects/${id}/attachments`).set(user.auth).set('Content-Type', 'image/png').send(PNG)).status).toBe(400);
  });

  it('a message carries its attachments: a line each, the file in public/attachments/, the bytes to the assistant', async () => {
    const { user, id } = await ready();
    await t.http().post(`/api/sandbox/${id}/ensure`).set(user.auth).expect(200);
    const created = await upload(user, id, PNG, 'image/png', 'logo.png');
    assistant.answers.push({ text: 'Done.', operations: [] });
    const base = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    const reply = await postStream(`${base}/api/projects/${id}/turns`, user.auth, { message: 'use this as the logo', idempotency_key: 'att-1', attachment_ids: [created.body.id] });
    expect(reply.status).toBe(200);
    expect(reply.events[0]?.data['message']).toBe(`use this as the logo\n\n[Attached image: ${created.body.path} (image/png) “logo.png”]`);
    expect(Buffer.compare(Buffer.from(host.bytesOf(id, `public${created.body.path}`) ?? []), PNG)).toBe(0);
    expect(assistant.taskInputs.at(-1)?.attachments?.map((a) => a.path)).toEqual([created.body.path]);

    // Another project's attachment, or a malformed id, is refused before anything runs.
    const other = await ready();
    const theirs = await upload(other.user, other.id, PNG, 'image/png');
    const refused = await postStream(`${base}/api/projects/${id}/turns`, user.auth, { message: 'use this', idempotency_key: 'att-2', attachment_ids: [theirs.body.id] });
    expect(refused.status).toBe(404);
    const malformed = await postStream(`${base}/api/projects/${id}/turns`, user.auth, { message: 'use this', idempotency_key: 'att-3', attachment_ids: ['../x'] });
    expect(malformed.status).toBe(400);
  });

  it('deletes a project’s attachments with the project', async () => {
    const { user, id } = await ready();
    const created = await upload(user, id, PNG, 'image/png');
    await t.http().delete(`/api/projects/${id}`).set(user.auth).expect((r) => expect(r.status).toBeLessThan(300));
    expect(await store.get(attachmentObjectKey(id, created.body.id))).toBeNull();
  });
});

describe('attachments API without an object store', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers 503 and records nothing; deleting a project without attachments still works', async () => {
    const user = newUser();
    const id = (await t.http().post('/api/projects').set(user.auth).send({ name: 'Pantry' })).body.id as string;
    const response = await t.http().post(`/api/projects/${id}/attachments`).set(user.auth).set('Content-Type', 'image/png').set('X-File-Name', 'logo.png').send(PNG);
    expect(response.status).toBe(503);
    expect(response.body.code).toBe('ATTACHMENTS.STORE_UNAVAILABLE');
    await t.http().delete(`/api/projects/${id}`).set(user.auth).expect((r) => expect(r.status).toBeLessThan(300));
  });
});
