import 'reflect-metadata';
import { describe, expect, it } from '@jest/globals';
import { InMemoryPersistenceModule } from '../testing/in-memory-persistence.module.js';
import { startTestApp } from '../testing/e2e.js';
import { databaseIsUp } from './health.controller.js';

describe('GET /health', () => {
  it('answers 200 { status: ok, database: up } without a token', async () => {
    const t = await startTestApp();
    try {
      const response = await t.http().get('/health');
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.body).toEqual({ status: 'ok', database: 'up' });
    } finally {
      await t.close();
    }
  });

  it.each([
    ['reports down', () => Promise.resolve(false)],
    ['throws', () => Promise.reject(new Error('ECONNREFUSED'))],
  ])('answers 503 when the database check %s', async (_label, databaseHealth) => {
    const t = await startTestApp({ overrides: { persistence: InMemoryPersistenceModule.forRoot({ databaseHealth }) } });
    try {
      const response = await t.http().get('/health');
      expect(response.status).toBe(503);
      expect(response.body).toEqual({ status: 'error', database: 'down', code: 'DATABASE_DOWN', detail: 'The database is not answering' });
    } finally {
      await t.close();
    }
  });
});

describe('GET /health with sandboxes on an engine (SANDBOX_ENGINE=docker)', () => {
  it('reports the engine up, and 503 SANDBOX_ENGINE_DOWN when it does not answer', async () => {
    let engineUp = true;
    const t = await startTestApp({ overrides: { sandboxEngineHealth: () => (engineUp ? Promise.resolve(true) : Promise.reject(new Error('ECONNREFUSED'))) } });
    try {
      expect((await t.http().get('/health').expect(200)).body).toEqual({ status: 'ok', database: 'up', sandbox_engine: 'up' });
      engineUp = false;
      const down = await t.http().get('/health');
      expect(down.status).toBe(503);
      expect(down.body).toEqual({ status: 'error', database: 'up', sandbox_engine: 'down', code: 'SANDBOX_ENGINE_DOWN', detail: 'The sandbox engine is not answering' });
    } finally {
      await t.close();
    }
  });
});

describe('databaseIsUp', () => {
  it('is true only for a check that answers true', async () => {
    expect(await databaseIsUp(() => Promise.resolve(true))).toBe(true);
    expect(await databaseIsUp(() => Promise.resolve(false))).toBe(false);
    expect(await databaseIsUp(() => Promise.reject(new Error('down')))).toBe(false);
  });

  it('counts a check that hangs past the timeout as down', async () => {
    const started = Date.now();
    expect(await databaseIsUp(() => new Promise<boolean>(() => undefined), 50)).toBe(false);
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});
