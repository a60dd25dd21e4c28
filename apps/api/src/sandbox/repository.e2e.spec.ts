import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type GitUrl, RepositoryImportError, type RepositoryImporter } from '@kiln/domain';
import { InMemorySandboxHost } from '@kiln/domain/testing';
import { type TestApp, type TestUser, newUser, startTestApp } from '../testing/e2e.js';

/** Writes a README as a real import would, or fails as scripted. */
class ScriptedImporter implements RepositoryImporter {
  failure: Error | null = null;
  readonly urls: string[] = [];
  constructor(private readonly host: InMemorySandboxHost) {}
  async importRepository(sandboxId: string, url: GitUrl) {
    this.urls.push(url.href);
    if (this.failure) throw this.failure;
    await this.host.writeFile(sandboxId, 'README.md', `# ${url.href}\n`);
    return { files: 1, bytes: 12 };
  }
}

/** POST /api/sandbox/{id}/__internal/api/setup/repository (SPEC §7, §8; issue #17 items 9 and 10). */
describe('setup/repository (HTTP)', () => {
  const host = new InMemorySandboxHost();
  const importer = new ScriptedImporter(host);
  let t: TestApp;
  let bare: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ overrides: { sandboxHost: host, repositoryImporter: importer } });
    bare = await startTestApp({ overrides: { sandboxHost: new InMemorySandboxHost() } });
  });
  afterAll(async () => {
    await t.close();
    await bare.close();
  });

  const ready = async (app: TestApp): Promise<{ user: TestUser; api: string }> => {
    const user = newUser();
    const { body } = await app.http().post('/api/projects').set(user.auth).send({ name: 'Imported' }).expect(201);
    const api = `/api/sandbox/${body.id as string}`;
    await app.http().post(`${api}/ensure`).set(user.auth).expect(200);
    return { user, api };
  };
  const route = (api: string) => `${api}/__internal/api/setup/repository`;

  it('imports and saves the version "Import <url>"', async () => {
    const { user, api } = await ready(t);
    const response = await t.http().post(route(api)).set(user.auth).send({ gitUrl: 'https://github.com/acme/site' }).expect(200);
    expect(response.body).toEqual({ success: true, files: 1, bytes: 12, version: { success: true, message: 'Import https://github.com/acme/site', hash: expect.any(String) } });
    const history = (await t.http().get(`${api}/git/history`).set(user.auth).expect(200)).body as { message: string }[];
    expect(history[0]?.message).toBe('Import https://github.com/acme/site');
  });

  it.each([
    ['http://github.com/acme/site', 'only https:// repository URLs are supported'],
    ['https://user:secret@github.com/acme/site', 'the URL must not hold a user name or password (only public repositories can be imported)'],
    ['https://127.0.0.1/acme/site', 'the host must be a public name, not a local, private or numeric address'],
    ['git://github.com/acme/site', 'only https:// repository URLs are supported'],
  ])("refuses %s with 400 'Failed to setup repository: {error}'", async (gitUrl, reason) => {
    const { user, api } = await ready(t);
    const before = importer.urls.length;
    const response = await t.http().post(route(api)).set(user.auth).send({ gitUrl });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: 'REPOSITORY.URL_REFUSED', detail: `Failed to setup repository: ${reason}` });
    expect(importer.urls.length).toBe(before);
  });

  it("a failed import is 422 'Failed to setup repository: {error}'; a missing gitUrl 400; someone else's project 404", async () => {
    const { user, api } = await ready(t);
    importer.failure = new RepositoryImportError('the repository is larger than 50 MiB');
    try {
      const failed = await t.http().post(route(api)).set(user.auth).send({ gitUrl: 'https://github.com/acme/huge' });
      expect(failed.status).toBe(422);
      expect(failed.body).toMatchObject({ code: 'REPOSITORY.IMPORT_FAILED', detail: 'Failed to setup repository: the repository is larger than 50 MiB' });
    } finally {
      importer.failure = null;
    }
    expect((await t.http().post(route(api)).set(user.auth).send({})).status).toBe(400);
    expect((await t.http().post(route(api)).set(newUser().auth).send({ gitUrl: 'https://github.com/acme/site' })).status).toBe(404);
  });

  it('a server without an importer answers 503, never 500', async () => {
    const { user, api } = await ready(bare);
    const response = await bare.http().post(route(api)).set(user.auth).send({ gitUrl: 'https://github.com/acme/site' });
    expect(response.status).toBe(503);
    expect(response.body).toMatchObject({ code: 'REPOSITORY.UNAVAILABLE', detail: 'Failed to setup repository: importing repositories is not available on this server' });
  });
});
