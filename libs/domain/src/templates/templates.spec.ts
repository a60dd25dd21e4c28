import { describe, expect, it } from '@jest/globals';
import { InProcessTurnLock } from '../ai/engine/project-turn-lock.js';
import { OwnedProjects } from '../projects/owned-projects.js';
import { newProject } from '../projects/project.entity.js';
import { SandboxMissing } from '../sandbox/sandbox-missing.js';
import type { ProblemLog } from '../shared/problem-log.port.js';
import { FixedClock } from '../testing/fixed-clock.js';
import { InMemoryProjectRepository } from '../testing/in-memory-project-repository.js';
import { InMemorySandboxHost } from '../testing/in-memory-sandbox-host.js';
import { RecordedFilesChanged } from '../testing/recorded-files-changed.js';
import { ApplyProjectTemplate } from './apply-project-template.use-case.js';
import { TEMPLATE_IDS, TEMPLATE_INFO, TemplateCatalog, type TemplateFiles, type TemplateId } from './project-template.js';
import { promptForTemplate } from './template-prompt.js';

const PROJECT = 'project-1';
const STARTER_HTML = '<html><head><title>Kiln</title></head><body></body></html>';

/** A producer that says what it was given: each template writes its App and keeps the head it got. */
class EchoTemplateFiles implements TemplateFiles {
  readonly seen: { template: TemplateId; current: ReadonlyMap<string, string> }[] = [];
  filesFor(template: TemplateId, current: ReadonlyMap<string, string>): ReadonlyMap<string, string> {
    this.seen.push({ template, current });
    if (template === 'blank') return new Map();
    return new Map([
      ['src/App.tsx', `export function App() { return <h1>${template}</h1>; }\n`],
      ['index.html', (current.get('index.html') ?? '').replace('Kiln', template)],
      // A page only this template has.
      [`src/pages/${template}.tsx`, `export const page = '${template}';\n`],
    ]);
  }
}

class RecordedProblems implements ProblemLog {
  readonly lines: string[] = [];
  warn(message: string): void {
    this.lines.push(message);
  }
}

async function setUp() {
  const clock = new FixedClock();
  const projects = new InMemoryProjectRepository();
  await projects.insert(newProject({ id: PROJECT, creatorId: 'ana', name: 'Shop' }, clock.now()));
  const host = new InMemorySandboxHost(clock);
  await host.ensure(PROJECT);
  await host.writeFile(PROJECT, 'index.html', STARTER_HTML);
  await host.saveVersion(PROJECT, 'Starter');
  const producer = new EchoTemplateFiles();
  const catalog = new TemplateCatalog(producer);
  const lock = new InProcessTurnLock();
  const changed = new RecordedFilesChanged();
  const problems = new RecordedProblems();
  const apply = new ApplyProjectTemplate(new OwnedProjects(projects, clock), catalog, host, lock, changed, problems);
  const versions = async () => (await host.versionHistory(PROJECT)).map((v) => v.message);
  return { host, producer, catalog, lock, changed, problems, apply, versions };
}

describe('the template catalog', () => {
  it('offers blank, landing, dashboard, store and blog, each named and described', () => {
    const catalog = new TemplateCatalog(new EchoTemplateFiles());
    expect(catalog.list().map((t) => t.id)).toEqual(['blank', 'landing', 'dashboard', 'store', 'blog']);
    for (const template of catalog.list()) {
      expect(template.name.length).toBeGreaterThan(0);
      expect(template.description.length).toBeGreaterThan(10);
    }
  });

  it('finds a template with its files producer; an unknown id is TEMPLATES.NOT_FOUND', () => {
    const catalog = new TemplateCatalog(new EchoTemplateFiles());
    const landing = catalog.find('landing');
    expect(landing.ok && landing.value.files(new Map()).get('src/App.tsx')).toContain('<h1>landing</h1>');
    expect(catalog.find('shop')).toEqual({ ok: false, error: { code: 'TEMPLATES.NOT_FOUND', message: expect.stringContaining('blank, landing'), template: 'shop' } });
  });
});

describe('ApplyProjectTemplate', () => {
  it("writes the template's files into the sandbox, tells the followers, and saves one version", async () => {
    const t = await setUp();
    const result = await t.apply.execute('ana', PROJECT, 'landing');
    expect(result).toEqual({ ok: true, value: { templateId: 'landing', written: ['src/App.tsx', 'index.html', 'src/pages/landing.tsx'], version: expect.objectContaining({ success: true }) } });
    expect(await t.host.readFile(PROJECT, 'src/App.tsx')).toContain('<h1>landing</h1>');
    // The producer built on the project's own files (its head kept).
    expect(await t.host.readFile(PROJECT, 'index.html')).toBe(STARTER_HTML.replace('Kiln', 'landing'));
    expect(t.producer.seen[0]?.current.get('index.html')).toBe(STARTER_HTML);
    expect(t.changed.of(PROJECT)).toEqual([{ paths: ['src/App.tsx', 'index.html', 'src/pages/landing.tsx'], reason: 'write' }]);
    expect(await t.versions()).toContain('Start from the Landing page template');
  });

  it('writes nothing and saves no version when the project already is the template (Blank on a new project)', async () => {
    const t = await setUp();
    const before = await t.versions();
    expect(await t.apply.execute('ana', PROJECT, 'blank')).toEqual({ ok: true, value: { templateId: 'blank', written: [] } });
    expect(t.changed.of(PROJECT)).toEqual([]);
    expect(await t.versions()).toEqual(before);
  });

  it('applying the same template again writes only what differs', async () => {
    const t = await setUp();
    await t.apply.execute('ana', PROJECT, 'store');
    const again = await t.apply.execute('ana', PROJECT, 'store');
    expect(again.ok && again.value.written).toEqual([]);
  });

  it('another template right after one replaces it: no page of the first is left, and the history keeps both', async () => {
    const t = await setUp();
    await t.apply.execute('ana', PROJECT, 'store');
    const blog = await t.apply.execute('ana', PROJECT, 'blog');
    expect(blog).toMatchObject({ ok: true, value: { templateId: 'blog', version: { success: true } } });
    expect(await t.host.readFile(PROJECT, 'src/App.tsx')).toContain('<h1>blog</h1>');
    expect(await t.host.readFile(PROJECT, 'index.html')).toBe(STARTER_HTML.replace('Kiln', 'blog'));
    await expect(t.host.readFile(PROJECT, 'src/pages/store.tsx')).rejects.toMatchObject({ code: 'ENOENT' });
    const history = await t.versions();
    expect(history[0]).toBe('Start from the Blog template');
    expect(history).toContain('Start from the Online store template');
    expect(t.changed.of(PROJECT).map((c) => (typeof c === 'string' ? c : c.reason))).toEqual(['write', 'restore', 'write']);
  });

  it('Blank right after a template is the starter again', async () => {
    const t = await setUp();
    await t.apply.execute('ana', PROJECT, 'store');
    await t.apply.execute('ana', PROJECT, 'blank');
    expect(await t.host.readFile(PROJECT, 'index.html')).toBe(STARTER_HTML);
    await expect(t.host.readFile(PROJECT, 'src/pages/store.tsx')).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('work saved after a template is never undone: the next template is written over it', async () => {
    const t = await setUp();
    await t.apply.execute('ana', PROJECT, 'store');
    await t.host.writeFile(PROJECT, 'src/cart.ts', 'export const cart = [];\n');
    await t.host.saveVersion(PROJECT, 'Add a cart');
    await t.apply.execute('ana', PROJECT, 'blog');
    expect(await t.host.readFile(PROJECT, 'src/cart.ts')).toContain('cart');
    expect(await t.host.readFile(PROJECT, 'src/pages/store.tsx')).toContain('store');
    expect(await t.host.readFile(PROJECT, 'src/App.tsx')).toContain('<h1>blog</h1>');
  });

  it("refuses another user's project, an unknown template, and a project whose turn is running", async () => {
    const t = await setUp();
    expect(await t.apply.execute('bob', PROJECT, 'landing')).toMatchObject({ ok: false, error: { code: 'PROJECTS.NOT_FOUND' } });
    expect(await t.apply.execute('ana', PROJECT, 'portfolio')).toMatchObject({ ok: false, error: { code: 'TEMPLATES.NOT_FOUND' } });
    let busy: unknown;
    await t.lock.tryRun(PROJECT, async () => {
      busy = await t.apply.execute('ana', PROJECT, 'landing');
    });
    expect(busy).toMatchObject({ ok: false, error: { code: 'PROJECTS.BUSY' } });
    expect(await t.host.readFile(PROJECT, 'index.html')).toBe(STARTER_HTML);
  });

  it('rethrows the host rejection when the project has no sandbox yet', async () => {
    const t = await setUp();
    await t.host.cleanup(PROJECT);
    await expect(t.apply.execute('ana', PROJECT, 'landing')).rejects.toBeInstanceOf(SandboxMissing);
  });

  it('keeps the written files and answers success false when the version cannot be saved', async () => {
    const t = await setUp();
    t.host.saveVersion = async () => {
      throw new Error('git is gone');
    };
    const result = await t.apply.execute('ana', PROJECT, 'blog');
    expect(result).toMatchObject({ ok: true, value: { templateId: 'blog', version: { success: false } } });
    expect(await t.host.readFile(PROJECT, 'src/App.tsx')).toContain('<h1>blog</h1>');
    expect(t.problems.lines.join()).toMatch(/git is gone/);
  });
});

describe('promptForTemplate (enhance-prompt shaped around the template)', () => {
  it.each(TEMPLATE_IDS.filter((id) => id !== 'blank'))('%s: names the template and what it has, then the request', (id) => {
    const info = TEMPLATE_INFO[id];
    const shaped = promptForTemplate('Build a page for a bakery called Crumbs.', info);
    expect(shaped).toBe(`Start from the ${info.name} template, which already has ${info.includes}. Keep its layout and sections and fill them for this idea. Build a page for a bakery called Crumbs.`);
  });

  it('blank asks for the whole app', () => {
    expect(promptForTemplate('A todo list.', TEMPLATE_INFO.blank)).toBe('Start from the Blank template (an empty page) and build the whole app. A todo list.');
  });

  it("drops the assistant's own \"Start from …\" line so the template is named once", () => {
    const shaped = promptForTemplate('Start from the “landing” template. Build a landing page.', TEMPLATE_INFO.landing);
    expect(shaped.match(/Start from/g)).toHaveLength(1);
    expect(shaped.endsWith('Build a landing page.')).toBe(true);
  });
});
