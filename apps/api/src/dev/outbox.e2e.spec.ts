import 'reflect-metadata';
import { createServer } from 'node:http';
import { networkInterfaces } from 'node:os';
import { describe, expect, it } from '@jest/globals';
import type { Mailer } from '@kiln/domain';
import request from 'supertest';
import { startTestApp } from '../testing/e2e.js';
import { MAILER } from '../tokens.js';

describe('GET /api/dev/outbox', () => {
  it("lists an address's mail newest first, without a token, the address matched in any case", async () => {
    const t = await startTestApp();
    try {
      const mailer = t.app.get<Mailer>(MAILER, { strict: false });
      await mailer.send({ to: 'Ana@Example.com', subject: 'Your code', text: 'Your code is 111111' });
      await mailer.send({ to: 'ben@example.com', subject: 'Not for Ana', text: '…' });
      await mailer.send({ to: 'ana@example.com', subject: 'Your new code', text: 'Your code is 222222' });
      const response = await t.http().get('/api/dev/outbox').query({ email: 'ANA@example.com' });
      expect(response.status).toBe(200);
      expect(response.body).toEqual([
        { to: 'ana@example.com', subject: 'Your new code', text: 'Your code is 222222', created_at: expect.any(String) },
        { to: 'Ana@Example.com', subject: 'Your code', text: 'Your code is 111111', created_at: expect.any(String) },
      ]);
      expect((await t.http().get('/api/dev/outbox').query({ email: 'nobody@example.com' })).body).toEqual([]);
    } finally {
      await t.close();
    }
  });

  it.each([
    [{}, 'email: is required'],
    [{ email: 'not-an-address' }, 'email: must be an email address'],
    [{ email: 'a@example.com', extra: '1' }, 'extra: is not allowed'],
  ])('answers 400 VALIDATION_FAILED for the query %j', async (query, detail) => {
    const t = await startTestApp();
    try {
      const response = await t.http().get('/api/dev/outbox').query(query);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ code: 'VALIDATION_FAILED', detail });
    } finally {
      await t.close();
    }
  });

  it('answers only clients on this machine: 403 DEV.LOOPBACK_ONLY through a proxy, or from another address', async () => {
    const t = await startTestApp({ overrides: { logLevel: 'silent' } });
    try {
      const mailer = t.app.get<Mailer>(MAILER, { strict: false });
      await mailer.send({ to: 'ana@example.com', subject: 'Your code', text: 'Your code is 111111' });
      expect((await t.http().get('/api/dev/outbox').query({ email: 'ana@example.com' })).body).toHaveLength(1);

      const relayed = await t.http().get('/api/dev/outbox').query({ email: 'ana@example.com' }).set('X-Forwarded-For', '203.0.113.9');
      expect(relayed.status).toBe(403);
      expect(relayed.body).toEqual({ code: 'DEV.LOOPBACK_ONLY', detail: expect.stringContaining('this machine') });

      // The same app on this machine's network address (not loopback): a client connecting there
      // is a remote peer for the API, and claiming 127.0.0.1 in a header changes nothing.
      const external = Object.values(networkInterfaces())
        .flat()
        .find((a) => a !== undefined && !a.internal && a.family === 'IPv4');
      if (external === undefined) return; // no network interface besides loopback on this machine
      const server = createServer(t.app.getHttpAdapter().getInstance());
      await new Promise<void>((resolve) => server.listen(0, external.address, resolve));
      try {
        const { port } = server.address() as { port: number };
        const remote = await request(`http://${external.address}:${port}`).get('/api/dev/outbox').query({ email: 'ana@example.com' }).set('X-Forwarded-For', '127.0.0.1');
        expect(remote.status).toBe(403);
        expect(remote.body.code).toBe('DEV.LOOPBACK_ONLY');
        expect(JSON.stringify(remote.body)).not.toContain('111111');
      } finally {
        await new Promise((resolve) => server.close(resolve));
      }
    } finally {
      await t.close();
    }
  });

  it('does not exist when NODE_ENV is production (404)', async () => {
    const t = await startTestApp({ env: { NODE_ENV: 'production' }, overrides: { logLevel: 'silent' } });
    try {
      const response = await t.http().get('/api/dev/outbox').query({ email: 'ana@example.com' });
      expect(response.status).toBe(404);
      expect(response.body.code).toBe('NOT_FOUND');
    } finally {
      await t.close();
    }
  });
});
