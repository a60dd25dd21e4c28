import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type TestApp, type TestUser, newUser, setPlan, startTestApp } from '../testing/e2e.js';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** An upper tier with one published project, to test the publish limit. */
const BASIC = {
  id: 'basic',
  name: 'Basic',
  interval: 'monthly',
  priceUsdMinor: 1000,
  priceInrMinor: 99900,
  promptsPerMonth: 10,
  privateProjects: 'unlimited',
  publishedProjects: 1,
};

describe('projects (HTTP)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ env: { PLAN_UPPER_TIERS: JSON.stringify([BASIC]) } });
  });

  afterAll(async () => {
    await t.close();
  });

  const create = async (user: TestUser, name = 'My app') => {
    const response = await t.http().post('/api/projects').set(user.auth).send({ name });
    expect(response.status).toBe(201);
    return response.body as { id: string; name: string; domain: string | null };
  };

  describe('POST /api/projects', () => {
    it('creates a private project', async () => {
      const user = newUser();
      const response = await t.http().post('/api/projects').set(user.auth).send({ name: '  Déjà Vu Todo  ' });
      expect(response.status).toBe(201);
      expect(response.body).toEqual({
        id: expect.stringMatching(UUID),
        project_id: response.body.id,
        creator_id: user.id,
        name: 'Déjà Vu Todo',
        slug: expect.stringMatching(/^deja-vu-todo-[a-z0-9]{12}$/),
        status: 'active',
        domain: null,
        created_at: expect.stringMatching(ISO),
        updated_at: expect.stringMatching(ISO),
      });
    });

    it("names a blank project 'Untitled project'", async () => {
      expect((await create(newUser(), '   ')).name).toBe('Untitled project');
    });

    it("answers 402 PROJECTS.LIMIT_REACHED with limit_type 'project' past the free plan's 3", async () => {
      const user = newUser();
      for (let i = 0; i < 3; i += 1) await create(user, `p${i}`);
      const response = await t.http().post('/api/projects').set(user.auth).send({ name: 'fourth' });
      expect(response.status).toBe(402);
      expect(response.body).toEqual({
        code: 'PROJECTS.LIMIT_REACHED',
        limit_type: 'project',
        limit: 3,
        detail: 'Your Free plan includes 3 private projects. Please upgrade to create more.',
      });
    });

    it('a deleted project frees its place', async () => {
      const user = newUser();
      const projects = [await create(user), await create(user), await create(user)];
      await t.http().delete(`/api/projects/${projects[0]?.id}`).set(user.auth).expect(204);
      await create(user, 'fourth');
    });

    it.each([
      [{}, 'name: is required'],
      [{ name: 42 }, 'name: must be a string'],
      [{ name: 'x'.repeat(101) }, 'name: must be shorter than or equal to 100 characters'],
      [{ name: 'ok', creator_id: 'someone-else' }, 'creator_id: is not allowed'],
    ])('answers 400 VALIDATION_FAILED for %j', async (body, detail) => {
      const response = await t.http().post('/api/projects').set(newUser().auth).send(body);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ code: 'VALIDATION_FAILED', detail });
    });

    it('answers 401 without a token and for a forged one', async () => {
      expect((await t.http().post('/api/projects').send({ name: 'x' })).status).toBe(401);
      expect((await t.http().post('/api/projects').set('Authorization', 'Bearer forged').send({ name: 'x' })).status).toBe(401);
    });
  });

  describe('GET /api/projects and GET /api/projects/:id', () => {
    it("lists only the caller's live projects, newest first", async () => {
      const user = newUser();
      const other = newUser();
      const a = await create(user, 'A');
      const b = await create(user, 'B');
      const c = await create(user, 'C');
      await create(other, 'Not mine');
      await t.http().delete(`/api/projects/${b.id}`).set(user.auth).expect(204);
      const response = await t.http().get('/api/projects').set(user.auth);
      expect(response.status).toBe(200);
      expect(response.body.map((p: { name: string }) => p.name).sort()).toEqual(['A', 'C']);
      expect(response.body.map((p: { id: string }) => p.id)).toEqual(expect.arrayContaining([a.id, c.id]));
    });

    it('answers an empty list for a new user', async () => {
      expect((await t.http().get('/api/projects').set(newUser().auth)).body).toEqual([]);
    });

    it('reads one project', async () => {
      const user = newUser();
      const project = await create(user, 'Mine');
      const response = await t.http().get(`/api/projects/${project.id}`).set(user.auth);
      expect(response.status).toBe(200);
      expect(response.body).toEqual(project);
    });

    it('answers 401 without a token', async () => {
      expect((await t.http().get('/api/projects')).status).toBe(401);
      expect((await t.http().get(`/api/projects/${randomUUID()}`)).status).toBe(401);
    });
  });

  describe("another user's projects, deleted ones and bad ids all answer 404", () => {
    it.each([
      ['GET', ''],
      ['PATCH', ''],
      ['DELETE', ''],
      ['GET', '/publish-check'],
    ])('%s /api/projects/:id%s', async (method, suffix) => {
      const owner = newUser();
      const project = await create(owner, 'Private');
      const deleted = await create(owner, 'Gone');
      await t.http().delete(`/api/projects/${deleted.id}`).set(owner.auth).expect(204);
      const intruder = newUser();
      const call = (user: TestUser, id: string) => {
        const path = `/api/projects/${id}${suffix}`;
        const req = method === 'GET' ? t.http().get(path) : method === 'PATCH' ? t.http().patch(path).send({ name: 'x' }) : t.http().delete(path);
        return req.set(user.auth);
      };
      for (const [user, id] of [
        [intruder, project.id],
        [owner, deleted.id],
        [owner, randomUUID()],
        [owner, 'not-a-uuid'],
      ] as const) {
        const response = await call(user, id);
        expect(response.status).toBe(404);
        expect(response.body).toEqual({ code: 'PROJECTS.NOT_FOUND', detail: `Record with id ${id} not found` });
      }
      // The owner's project is untouched.
      expect((await t.http().get(`/api/projects/${project.id}`).set(owner.auth)).body).toMatchObject({ name: 'Private', status: 'active' });
    });
  });

  describe('PATCH /api/projects/:id', () => {
    it('renames a project (the slug stays)', async () => {
      const user = newUser();
      const project = (await create(user, 'Old')) as { id: string; slug?: string };
      const response = await t.http().patch(`/api/projects/${project.id}`).set(user.auth).send({ name: ' New name ' });
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ id: project.id, name: 'New name', slug: project.slug, domain: null });
    });

    it('does not publish: a domain field is refused (publishing is /api/fly/create-project), and nothing changes', async () => {
      const user = newUser();
      const project = await create(user);
      await setPlan(t, user.id, 'pro_monthly');
      for (const domain of ['app.example.com', null]) {
        const response = await t.http().patch(`/api/projects/${project.id}`).set(user.auth).send({ name: 'Renamed', domain });
        expect(response.status).toBe(400);
        expect(response.body).toEqual({ code: 'VALIDATION_FAILED', detail: 'domain: is not allowed' });
      }
      expect((await t.http().get(`/api/projects/${project.id}`).set(user.auth)).body).toMatchObject({ name: 'My app', domain: null });
      expect((await t.http().get('/api/usage').set(user.auth)).body.published_projects_count).toBe(0);
    });

    it.each([
      [{ name: '' }, 'name: should not be empty'],
      [{ name: null }, 'name: must be a string'],
      [{ domain: 'localhost' }, 'domain: is not allowed'],
      [{ status: 'active' }, 'status: is not allowed'],
    ])('answers 400 VALIDATION_FAILED for %j', async (body, detail) => {
      const user = newUser();
      const project = await create(user);
      const response = await t.http().patch(`/api/projects/${project.id}`).set(user.auth).send(body);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ code: 'VALIDATION_FAILED', detail });
    });

    it('answers 401 without a token', async () => {
      expect((await t.http().patch(`/api/projects/${randomUUID()}`).send({ name: 'x' })).status).toBe(401);
    });
  });

  describe('DELETE /api/projects/:id', () => {
    it('soft-deletes: 204, then the project is gone for the user', async () => {
      const user = newUser();
      const project = await create(user);
      const response = await t.http().delete(`/api/projects/${project.id}`).set(user.auth);
      expect(response.status).toBe(204);
      expect(response.text).toBe('');
      expect((await t.http().get(`/api/projects/${project.id}`).set(user.auth)).status).toBe(404);
      expect((await t.http().delete(`/api/projects/${project.id}`).set(user.auth)).status).toBe(404);
      expect((await t.http().get('/api/usage').set(user.auth)).body.private_projects_count).toBe(0);
    });

    it('answers 401 without a token', async () => {
      expect((await t.http().delete(`/api/projects/${randomUUID()}`)).status).toBe(401);
    });
  });

  describe('GET /api/projects/:id/publish-check', () => {
    it('answers 402 on the free plan', async () => {
      const user = newUser();
      const project = await create(user);
      const response = await t.http().get(`/api/projects/${project.id}/publish-check`).set(user.auth);
      expect(response.status).toBe(402);
      expect(response.body).toMatchObject({ code: 'PUBLISHING.NOT_INCLUDED', limit_type: 'published' });
    });

    it('answers { allowed: true, limit } when the plan allows it', async () => {
      const user = newUser();
      const project = await create(user);
      await setPlan(t, user.id, 'pro_annual');
      expect((await t.http().get(`/api/projects/${project.id}/publish-check`).set(user.auth)).body).toEqual({ allowed: true, limit: 'unlimited' });
      await setPlan(t, user.id, 'basic');
      expect((await t.http().get(`/api/projects/${project.id}/publish-check`).set(user.auth)).body).toEqual({ allowed: true, limit: 1 });
    });

    it('answers 401 without a token', async () => {
      expect((await t.http().get(`/api/projects/${randomUUID()}/publish-check`)).status).toBe(401);
    });
  });
});
