import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { InMemorySandboxHost } from '@kiln/domain/testing';
import { type TestApp, type TestUser, newUser, startTestApp } from '../testing/e2e.js';
import { ProjectIndexer } from './project-indexer.js';

describe('vector index API (HTTP)', () => {
  let t: TestApp;
  let host: InMemorySandboxHost;
  let indexer: ProjectIndexer;

  beforeAll(async () => {
    host = new InMemorySandboxHost();
    t = await startTestApp({ overrides: { sandboxHost: host } });
    indexer = t.app.get(ProjectIndexer);
  });

  afterAll(async () => {
    await t.close();
  });

  const createProject = async (user: TestUser): Promise<string> => {
    const response = await t.http().post('/api/projects').set(user.auth).send({ name: 'Vector app' });
    expect(response.status).toBe(201);
    return response.body.id as string;
  };

  /** A user with a project whose sandbox exists (the in-memory starter files). */
  const ready = async (): Promise<{ user: TestUser; id: string }> => {
    const user = newUser();
    const id = await createProject(user);
    await host.ensure(id);
    return { user, id };
  };

  const query = (user: TestUser, id: string, text: string, extra: Record<string, string> = {}) =>
    t.http().get('/api/vector/query').query({ query: text, project_id: id, ...extra }).set(user.auth);

  describe('POST /api/vector/full-reindex and GET /api/vector/query', () => {
    it('indexes files given with their text and answers [{ path, score, snippet }], best first', async () => {
      const { user, id } = await ready();
      const response = await t
        .http()
        .post('/api/vector/full-reindex')
        .set(user.auth)
        .send({
          project_id: id,
          file_tree: [
            { path: 'src/lib/invoice.ts', content: 'export function invoiceTotal(invoice) {\n  return invoice.lines + invoice.tax;\n}\n' },
            { path: 'src/lib/format.ts', content: '// used on the invoice page\nexport const money = 1;\n' },
            { path: 'node_modules/x/index.js', content: 'invoice' },
          ],
        });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ success: true, indexed_files: 2, skipped_files: 1, removed_paths: [] });

      const found = await query(user, id, 'invoice');
      expect(found.status).toBe(200);
      expect(found.body).toEqual([
        { path: 'src/lib/invoice.ts', score: expect.any(Number), snippet: expect.stringContaining('invoiceTotal') },
        { path: 'src/lib/format.ts', score: expect.any(Number), snippet: '// used on the invoice page\nexport const money = 1;' },
      ]);
      expect(found.body[0].score).toBeGreaterThan(found.body[1].score);
    });

    it('reads the files of a sandbox tree (get-tree’s shape) from the sandbox', async () => {
      const { user, id } = await ready();
      await host.writeFile(id, 'src/components/Checkout.tsx', 'export const Checkout = () => <button>Pay now</button>;\n');
      const tree = await t.http().get(`/api/sandbox/${id}/get-tree`).set(user.auth);
      expect(tree.status).toBe(200);
      const response = await t.http().post('/api/vector/full-reindex').set(user.auth).send({ project_id: id, file_tree: tree.body });
      expect(response.body).toMatchObject({ success: true, indexed_files: 6 });
      const found = await query(user, id, 'checkout pay');
      expect(found.body[0]).toMatchObject({ path: 'src/components/Checkout.tsx', snippet: expect.stringContaining('Pay now') });
    });

    it("reindexes the whole project from '.', and respects the limit (10 by default, SPEC §9)", async () => {
      const { user, id } = await ready();
      for (let i = 0; i < 14; i += 1) await host.writeFile(id, `src/widgets/W${i}.tsx`, `export const W${i} = () => <p>gizmo</p>;\n`);
      await t.http().post('/api/vector/full-reindex').set(user.auth).send({ project_id: id, file_tree: [{ path: '.', type: 'directory' }] }).expect(200);
      expect((await query(user, id, 'gizmo')).body).toHaveLength(10);
      expect((await query(user, id, 'gizmo', { limit: '3' })).body).toHaveLength(3);
      expect((await query(user, id, 'gizmo', { limit: '50' })).body).toHaveLength(14);
      expect((await query(user, id, 'the a to')).body).toEqual([]);
    });

    it('answers 404 SANDBOX.NOT_FOUND when files must be read from a sandbox that does not exist yet', async () => {
      const user = newUser();
      const id = await createProject(user);
      const response = await t.http().post('/api/vector/full-reindex').set(user.auth).send({ project_id: id, file_tree: [{ path: 'src/App.tsx' }] });
      expect(response.status).toBe(404);
      expect(response.body).toMatchObject({ code: 'SANDBOX.NOT_FOUND' });
      // With the texts given, no sandbox is needed.
      await t.http().post('/api/vector/full-reindex').set(user.auth).send({ project_id: id, file_tree: [{ path: 'a.ts', content: 'x' }] }).expect(200);
    });
  });

  describe('POST /api/vector/partial-reindex', () => {
    it('re-reads changed files, drops removed ones and files gone from the sandbox', async () => {
      const { user, id } = await ready();
      await t.http().post('/api/vector/full-reindex').set(user.auth).send({ project_id: id, file_tree: [{ path: '.', type: 'directory' }] }).expect(200);
      await host.writeFile(id, 'src/App.tsx', 'export function App() { return <h1>Hello aurora</h1>; }\n');
      await host.deleteFile(id, 'tsconfig.json');
      const response = await t
        .http()
        .post('/api/vector/partial-reindex')
        .set(user.auth)
        .send({ project_id: id, file_tree: [{ path: 'src/App.tsx' }, { path: 'tsconfig.json' }, { path: 'src/extra.ts', content: 'export const nebula = 1;' }], removed: ['index.html'] });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ success: true, indexed_files: 2, skipped_files: 0, removed_paths: ['index.html', 'tsconfig.json'] });
      expect((await query(user, id, 'aurora')).body.map((m: { path: string }) => m.path)).toEqual(['src/App.tsx']);
      expect((await query(user, id, 'welcome')).body).toEqual([]);
      expect((await query(user, id, 'nebula')).body.map((m: { path: string }) => m.path)).toEqual(['src/extra.ts']);
      expect((await query(user, id, 'root')).body).toEqual([]);
    });
  });

  describe('POST /api/vector/clone-template', () => {
    it('copies the index of one of the caller’s own projects', async () => {
      const { user, id: template } = await ready();
      await t.http().post('/api/vector/full-reindex').set(user.auth).send({ project_id: template, file_tree: [{ path: 'src/theme.ts', content: 'export const palette = "sunset";' }] });
      const id = await createProject(user);
      const response = await t.http().post('/api/vector/clone-template').set(user.auth).send({ template, project_id: id });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ success: true, indexed_files: 1 });
      expect((await query(user, id, 'sunset')).body.map((m: { path: string }) => m.path)).toEqual(['src/theme.ts']);
    });

    it('copies a named template indexed through ProjectIndexer, and answers 404 for one without an index', async () => {
      const { user, id } = await ready();
      await indexer.indexTemplate('landing-page', [{ path: 'src/Hero.tsx', content: 'export const Hero = () => <h1>Launch</h1>;' }]);
      await t.http().post('/api/vector/clone-template').set(user.auth).send({ template: 'landing-page', project_id: id }).expect(200, { success: true, indexed_files: 1 });
      expect((await query(user, id, 'hero launch')).body[0]).toMatchObject({ path: 'src/Hero.tsx' });

      const missing = await t.http().post('/api/vector/clone-template').set(user.auth).send({ template: 'no-such-template', project_id: id });
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ code: 'VECTOR.TEMPLATE_NOT_FOUND', detail: 'No index for template no-such-template', template: 'no-such-template' });
      const odd = await t.http().post('/api/vector/clone-template').set(user.auth).send({ template: 'Bad Name!', project_id: id });
      expect(odd.status).toBe(404);
    });

    it('never copies another user’s project', async () => {
      const { id: theirs } = await ready();
      await t.http().post('/api/vector/full-reindex').set(newUser().auth).send({ project_id: theirs, file_tree: [] }).expect(404);
      const { user, id } = await ready();
      const response = await t.http().post('/api/vector/clone-template').set(user.auth).send({ template: theirs, project_id: id });
      expect(response.status).toBe(404);
      expect(response.body).toMatchObject({ code: 'PROJECTS.NOT_FOUND' });
    });
  });

  describe('access and validation', () => {
    it('answers 404 PROJECTS.NOT_FOUND for someone else’s project, a missing one and a non-UUID id; 401 without a token', async () => {
      const { id } = await ready();
      const stranger = newUser();
      for (const projectId of [id, randomUUID(), 'not-a-uuid']) {
        const reindex = await t.http().post('/api/vector/full-reindex').set(stranger.auth).send({ project_id: projectId, file_tree: [] });
        expect(reindex.status).toBe(404);
        expect(reindex.body).toMatchObject({ code: 'PROJECTS.NOT_FOUND' });
        expect((await t.http().post('/api/vector/partial-reindex').set(stranger.auth).send({ project_id: projectId, file_tree: [] })).status).toBe(404);
        expect((await t.http().post('/api/vector/clone-template').set(stranger.auth).send({ project_id: projectId, template: 'x' })).status).toBe(404);
        expect((await query(stranger, projectId, 'anything')).status).toBe(404);
      }
      expect((await t.http().get('/api/vector/query').query({ query: 'x', project_id: id })).status).toBe(401);
      expect((await t.http().post('/api/vector/full-reindex').send({ project_id: id, file_tree: [] })).status).toBe(401);
    });

    it.each([
      [{}, 'project_id: is required; file_tree: is required'],
      [{ file_tree: 'src' }, 'file_tree: must be an array'],
      [{ file_tree: [{ path: 'a.ts', size: 3 }] }, 'file_tree: [0].size is not allowed'],
      [{ file_tree: [{ path: '' }] }, 'file_tree: [0].path must be a non-empty string of at most 4096 characters'],
      [{ file_tree: [{ path: 'a.ts', type: 'file', children: [] }] }, 'file_tree: [0].children is only for folders'],
      [{ file_tree: [{ path: 'src', type: 'directory', children: [{ path: 'src/a.ts', content: 3 }] }] }, 'file_tree: [0].children[0].content must be a string of at most 5242880 characters'],
      [{ file_tree: [], extra: true }, 'extra: is not allowed'],
    ])('refuses a bad body %p (400 VALIDATION_FAILED)', async (body, detail) => {
      const { user, id } = await ready();
      const response = await t.http().post('/api/vector/full-reindex').set(user.auth).send({ project_id: id, ...body });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ code: 'VALIDATION_FAILED', detail: detail.replace('project_id: is required; ', '') });
    });

    it('refuses trees nested too deep without exhausting the stack', async () => {
      const { user, id } = await ready();
      let tree: Record<string, unknown> = { path: 'leaf.ts', content: 'x' };
      for (let i = 0; i < 70; i += 1) tree = { path: `d${i}`, type: 'directory', children: [tree] };
      const response = await t.http().post('/api/vector/full-reindex').set(user.auth).send({ project_id: id, file_tree: [tree] });
      expect(response.status).toBe(400);
      expect(response.body.detail).toBe('file_tree: folders nest deeper than 64');
    });

    it('refuses paths that leave the project (400 SANDBOX.PATH_OUTSIDE)', async () => {
      const { user, id } = await ready();
      const tree = await t.http().post('/api/vector/full-reindex').set(user.auth).send({ project_id: id, file_tree: [{ path: '../../etc/passwd' }] });
      expect(tree.status).toBe(400);
      expect(tree.body).toMatchObject({ code: 'SANDBOX.PATH_OUTSIDE', path: '../../etc/passwd', reason: 'parent-escape' });
      const removed = await t.http().post('/api/vector/partial-reindex').set(user.auth).send({ project_id: id, file_tree: [], removed: ['/etc'] });
      expect(removed.status).toBe(400);
      expect(removed.body).toMatchObject({ code: 'SANDBOX.PATH_OUTSIDE', reason: 'absolute' });
    });

    it.each([['0'], ['101'], ['abc'], ['2.5']])('refuses limit=%p', async (limit) => {
      const { user, id } = await ready();
      const response = await query(user, id, 'x', { limit });
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('VALIDATION_FAILED');
    });

    it('needs a query', async () => {
      const { user, id } = await ready();
      const response = await t.http().get('/api/vector/query').query({ project_id: id }).set(user.auth);
      expect(response).toMatchObject({ status: 400, body: { code: 'VALIDATION_FAILED', detail: 'query: is required' } });
    });
  });

  describe('ProjectIndexer (for modules that write files)', () => {
    it('follows writes and deletes, and waits for them before a query', async () => {
      const { user, id } = await ready();
      await indexer.reindexAll(id);
      await host.writeFile(id, 'src/pages/Pricing.tsx', 'export const Pricing = () => <p>tiers</p>;\n');
      void indexer.indexChanged(id, ['src/pages/Pricing.tsx']);
      expect((await query(user, id, 'pricing tiers')).body[0]).toMatchObject({ path: 'src/pages/Pricing.tsx' });
      await host.deleteFile(id, 'src/pages');
      await indexer.indexChanged(id, ['src/pages']);
      expect((await query(user, id, 'pricing tiers')).body).toEqual([]);
    });

    it('never rejects when indexing fails (no sandbox), so a write never fails because of it', async () => {
      await expect(indexer.indexChanged(randomUUID(), ['src/App.tsx'])).resolves.toBeUndefined();
    });

    it('gives the assistant the tree and the relevant files within a budget', async () => {
      const { id } = await ready();
      await host.writeFile(id, 'src/components/Chart.tsx', 'export const Chart = () => <svg>sales chart</svg>;\n');
      await indexer.indexChanged(id, []);
      const context = await indexer.contextFor({ projectId: id, prompt: 'make the sales chart bigger', budgetChars: 10_000 });
      expect(context.tree).toContain('src/components/Chart.tsx');
      expect(context.files.map((f) => f.path).slice(0, 5)).toEqual(['src/main.tsx', 'src/App.tsx', 'package.json', 'index.html', 'src/components/Chart.tsx']);
      expect(context.usedChars).toBeLessThanOrEqual(10_000);
    });
  });
});
