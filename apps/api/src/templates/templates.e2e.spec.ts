import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type ProjectTurnLock, TEMPLATE_IDS } from '@kiln/domain';
import { InMemorySandboxHost } from '@kiln/domain/testing';
import { ScriptedAiAssistant } from '../ai/testing/scripted-ai-assistant.js';
import { type TestApp, type TestUser, newUser, startTestApp } from '../testing/e2e.js';
import { TURN_LOCK } from '../tokens.js';
import { ProjectIndexer, templateKey } from '../vector/project-indexer.js';

/** Issue #17 item 6: the template catalog, applying a template, its index, and enhance-prompt shaped by it. */
describe('templates (HTTP)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ overrides: { sandboxHost: new InMemorySandboxHost(), aiAssistant: new ScriptedAiAssistant() } });
  });
  afterAll(async () => {
    await t.close();
  });

  /** A user's project with a sandbox (the in-memory starter). */
  const ready = async (): Promise<{ user: TestUser; id: string; api: string }> => {
    const user = newUser();
    const { body } = await t.http().post('/api/projects').set(user.auth).send({ name: 'Wizard app' }).expect(201);
    const api = `/api/sandbox/${body.id as string}`;
    await t.http().post(`${api}/ensure`).set(user.auth).expect(200);
    return { user, id: body.id as string, api };
  };
  const read = async (user: TestUser, api: string, path: string) => (await t.http().get(`${api}/read-file`).query({ path }).set(user.auth).expect(200)).body.content as string;

  it('GET /api/templates lists blank, landing, dashboard, store and blog, each named and described', async () => {
    const user = newUser();
    const response = await t.http().get('/api/templates').set(user.auth).expect(200);
    expect(response.body.map((tpl: { id: string }) => tpl.id)).toEqual([...TEMPLATE_IDS]);
    expect(response.body[1]).toEqual({ id: 'landing', name: 'Landing page', description: expect.stringMatching(/hero/) });
    await t.http().get('/api/templates').expect(401);
  });

  it("apply-template writes the template's app into the sandbox as one version", async () => {
    const { user, api } = await ready();
    const response = await t.http().post(`${api}/apply-template`).set(user.auth).send({ template_id: 'landing' });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ template_id: 'landing', commit: { success: true, message: 'Start from the Landing page template' } });
    expect(response.body.written_files).toEqual(expect.arrayContaining(['src/App.tsx', 'src/components/Hero.tsx', 'src/components/Features.tsx']));
    expect(await read(user, api, 'src/App.tsx')).toContain('<Features />');
    const history = (await t.http().get(`${api}/git/history`).set(user.auth).expect(200)).body as Array<{ message: string }>;
    expect(history[0]?.message).toBe('Start from the Landing page template');
    // Blank over a fresh project changes nothing.
    const fresh = await ready();
    expect((await t.http().post(`${fresh.api}/apply-template`).set(fresh.user.auth).send({ template_id: 'blank' }).expect(200)).body).toEqual({ template_id: 'blank', written_files: [] });
  });

  it('refuses an unknown template (404), a missing one (400), another user (404), no sandbox (404) and a running turn (409)', async () => {
    const { user, id, api } = await ready();
    const unknown = await t.http().post(`${api}/apply-template`).set(user.auth).send({ template_id: 'portfolio' });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: 'TEMPLATES.NOT_FOUND', template: 'portfolio' });
    expect((await t.http().post(`${api}/apply-template`).set(user.auth).send({})).body).toMatchObject({ code: 'VALIDATION_FAILED', detail: expect.stringMatching(/template_id/) });
    expect((await t.http().post(`${api}/apply-template`).set(newUser().auth).send({ template_id: 'landing' })).body).toMatchObject({ code: 'PROJECTS.NOT_FOUND' });
    const { body } = await t.http().post('/api/projects').set(user.auth).send({ name: 'No sandbox' }).expect(201);
    expect((await t.http().post(`/api/sandbox/${body.id as string}/apply-template`).set(user.auth).send({ template_id: 'landing' })).body).toMatchObject({ code: 'SANDBOX.NOT_FOUND' });
    const lock = t.app.get<ProjectTurnLock>(TURN_LOCK);
    let busy = 0;
    await lock.tryRun(id, async () => {
      busy = (await t.http().post(`${api}/apply-template`).set(user.auth).send({ template_id: 'landing' })).status;
    });
    expect(busy).toBe(409);
  });

  it("clone-template with a template's name starts the project's index as that template (the starter with its files)", async () => {
    const { user, id } = await ready();
    const indexer = t.app.get(ProjectIndexer);
    for (const template of TEMPLATE_IDS) await indexer.whenIdle(templateKey(template));
    const response = await t.http().post('/api/vector/clone-template').set(user.auth).send({ template: 'dashboard', project_id: id }).expect(200);
    expect(response.body.indexed_files).toBeGreaterThan(5);
    const hits = (await t.http().get('/api/vector/query').query({ query: 'recent orders', project_id: id }).set(user.auth).expect(200)).body as Array<{ path: string }>;
    expect(hits.map((h) => h.path)).toContain('src/components/RecentOrders.tsx');
  });

  it('enhance-prompt with a catalog template_id shapes the prompt around it', async () => {
    const user = newUser();
    const response = await t.http().post('/api/ai/enhance-prompt').set(user.auth).send({ prompt: 'a bakery called Crumbs', template_id: 'landing' }).expect(200);
    expect(response.body.prompt).toMatch(/^Start from the Landing page template, which already has a hero, features, testimonials and a call to action\. /);
    expect(response.body.prompt).toContain('a bakery called Crumbs');
  });
});
