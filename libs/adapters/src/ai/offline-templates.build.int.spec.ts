// Every template of the catalog (issue #17 item 6) is a real project: written into a real sandbox
// (LocalSandboxHost, from the starter with its shared dependencies) through the same use case the
// wizard calls, then checked with the sandbox's own find-errors — the project's TypeScript
// compiler and a Vite build. The producer is @kiln/offline-assistant's; it lives here because it
// needs the sandbox.
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ApplyProjectTemplate, InProcessTurnLock, OwnedProjects, newProject, TEMPLATE_IDS, TemplateCatalog, type ErrorScan } from '@kiln/domain';
import { FixedClock, InMemoryProjectRepository, RecordedFilesChanged } from '@kiln/domain/testing';
import { OfflineTemplateFiles } from '@kiln/offline-assistant';
import { DEFAULT_BWRAP_PATH, LocalSandboxHost } from '../sandbox/local-sandbox-host.adapter.js';
import { TEST_SANDBOX_CACHE_DIR, tempSandboxRoot } from '../sandbox/testing/sandbox-test-dirs.js';

const label = existsSync(DEFAULT_BWRAP_PATH) ? 'in bubblewrap' : 'without bubblewrap';

/** The sandbox's find-errors, as a readable failure ('' when the project type-checks and builds). */
async function check(host: LocalSandboxHost, id: string): Promise<string> {
  const scan: ErrorScan = await host.findErrors(id);
  if (scan.errorCount === 0) return '';
  return `${id}: ${scan.errorCount} error(s)\n${scan.errors.map((e) => `  ${e.file}:${e.line}:${e.column} ${e.message}`).join('\n')}`;
}

describe(`templates: each one type-checks and builds in a real sandbox (${label})`, () => {
  let host: LocalSandboxHost;
  let close: () => Promise<void>;

  beforeAll(async () => {
    let root: string;
    ({ root, close } = await tempSandboxRoot('kiln-templates-'));
    host = new LocalSandboxHost({ root, cacheDir: TEST_SANDBOX_CACHE_DIR });
    await host.prepareTemplate();
  }, 300_000);
  afterAll(async () => {
    await host?.stopAll();
    await close?.();
  });

  it(`applies ${TEMPLATE_IDS.join(', ')} to new projects; every one passes tsc and vite build`, async () => {
    const clock = new FixedClock();
    const projects = new InMemoryProjectRepository();
    const apply = new ApplyProjectTemplate(
      new OwnedProjects(projects, clock),
      new TemplateCatalog(new OfflineTemplateFiles()),
      host,
      new InProcessTurnLock(),
      new RecordedFilesChanged(),
      { warn: (message) => console.warn(message) },
    );
    const failures: string[] = [];
    for (const template of TEMPLATE_IDS) {
      const id = `template-${template}`;
      await projects.insert(newProject({ id, creatorId: 'ana', name: template }, clock.now()));
      await host.ensure(id);
      const applied = await apply.execute('ana', id, template);
      if (!applied.ok) throw new Error(applied.error.message);
      // Blank is the starter itself; every other template wrote its app and saved it as a version.
      if (template === 'blank') expect(applied.value.written).toEqual([]);
      else {
        expect(applied.value.written).toContain('src/App.tsx');
        expect(applied.value.version?.success).toBe(true);
        expect((await host.versionHistory(id))[0]?.message).toMatch(/^Start from the .+ template$/);
      }
      const failure = await check(host, id);
      if (failure) failures.push(failure);
    }
    expect(failures).toEqual([]);
  }, 900_000);
});
