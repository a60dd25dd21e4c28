import 'reflect-metadata';
import { describe, expect, it } from '@jest/globals';
import { THEME_PRESETS, TEMPLATE_IDS, TEMPLATE_INFO } from '@kiln/domain';
import { ApiError } from '../../app/ports';
import type { AiApi } from '../../api/ai.api';
import type { DatabasesApi } from '../../api/databases.api';
import type { ProjectDto, ProjectsApi } from '../../api/projects.api';
import type { SandboxApi } from '../../api/sandbox.api';
import type { TemplatesApi } from '../../api/templates.api';
import { MemorySavedPrompts, RecordingNavigator } from '../../testing/auth-fakes';
import { RecordingLogger } from '../../testing/ui-fakes';
import { KEEP_TEMPLATE_LOOK, WizardVm } from './wizard.vm';

const project = (name: string): ProjectDto => ({ id: 'p1', name, slug: 's', status: 'active', domain: null, created_at: '', updated_at: '' });
const TEMPLATES = TEMPLATE_IDS.map((id) => ({ id, name: TEMPLATE_INFO[id].name, description: TEMPLATE_INFO[id].description }));

/** Every API the wizard calls, recording the calls in order; `fail` makes one method reject once. */
function setUp() {
  const calls: string[] = [];
  const fail = new Map<string, Error>();
  const call = async <T>(name: string, value: T): Promise<T> => {
    calls.push(name);
    const failure = fail.get(name.split(' ')[0] as string);
    if (failure) {
      fail.delete(name.split(' ')[0] as string);
      throw failure;
    }
    return value;
  };
  const projects = {
    get: (id: string) => call(`get ${id}`, project('Untitled project')),
    rename: (id: string, name: string) => call(`rename ${id} ${name}`, project(name)),
  } as unknown as ProjectsApi;
  const templates: TemplatesApi = {
    list: () => call('list', TEMPLATES),
    apply: (id, template) => call(`apply ${id} ${template}`, { template_id: template, written_files: ['src/App.tsx'] }),
    cloneIndex: (id, template) => call(`clone ${id} ${template}`, { indexed_files: 12 }),
  };
  const sandbox = {
    ensure: (id: string) => call(`ensure ${id}`, {}),
    applyTheme: (id: string, theme: { name: string }) => call(`theme ${id} ${theme.name}`, { outcome: 'applied', theme: theme.name }),
  } as unknown as SandboxApi;
  const databases = { provision: (id: string) => call(`provision ${id}`, {}) } as unknown as DatabasesApi;
  const ai = { enhancePrompt: (prompt: string, template?: string) => call(`enhance ${template}`, `Start from the ${template} template. ${prompt}`) } as unknown as AiApi;
  const prompts = new MemorySavedPrompts();
  const navigator = new RecordingNavigator();
  const vm = new WizardVm(projects, templates, sandbox, databases, ai, prompts, navigator, new RecordingLogger());
  return { vm, calls, fail, prompts, navigator };
}

describe('WizardVm', () => {
  it('keeps a name typed while the project was still loading', async () => {
    const t = setUp();
    const loading = t.vm.init('p1');
    t.vm.setName('Crumbs Bakery');
    await loading;
    expect(t.vm.name).toBe('Crumbs Bakery');
    await t.vm.next();
    expect(t.calls).toContain('rename p1 Crumbs Bakery');
  });

  it('walks name → template → theme → database → first prompt, each step doing its work, then opens the builder', async () => {
    const t = setUp();
    await t.vm.init('p1');
    expect(t.vm.templates.map((tpl) => tpl.id)).toEqual(['blank', 'landing', 'dashboard', 'store', 'blog']);
    expect(t.vm.step).toBe('name');

    t.vm.setName('  Crumbs Bakery ');
    await t.vm.next();
    expect(t.vm.step).toBe('template');

    t.vm.chooseTemplate('landing');
    await t.vm.next();
    expect(t.vm.step).toBe('theme');

    const ocean = THEME_PRESETS[1]?.name as string;
    t.vm.chooseTheme(ocean);
    await t.vm.next();
    expect(t.vm.step).toBe('database');

    t.vm.chooseDatabase(true);
    await t.vm.next();
    expect(t.vm.step).toBe('prompt');

    t.vm.setPrompt('A landing page for my bakery called Crumbs');
    await t.vm.next();
    expect(t.calls).toEqual([
      'get p1',
      'list',
      'rename p1 Crumbs Bakery',
      'ensure p1',
      'apply p1 landing',
      'clone p1 landing',
      `theme p1 ${ocean}`,
      'provision p1',
    ]);
    // The builder sends the saved prompt as the project's first turn.
    expect(t.prompts.get('p1')).toBe('A landing page for my bakery called Crumbs');
    expect(t.navigator.last).toBe('/builder/p1');
  });

  it('skips the work a step does not need: same name, the template look kept, no database', async () => {
    const t = setUp();
    await t.vm.init('p1');
    await t.vm.next(); // name unchanged
    await t.vm.next(); // blank
    expect(t.vm.theme).toBe(KEEP_TEMPLATE_LOOK);
    await t.vm.next(); // keep the look
    await t.vm.next(); // no database
    expect(t.calls).toEqual(['get p1', 'list', 'ensure p1', 'apply p1 blank', 'clone p1 blank']);
  });

  it('a failed step stays where it is with the message, and Next tries again', async () => {
    const t = setUp();
    await t.vm.init('p1');
    await t.vm.next();
    t.vm.chooseTemplate('store');
    t.fail.set('apply', new ApiError('An AI turn is running in this project', 409, 'PROJECTS.BUSY', null));
    await t.vm.next();
    expect(t.vm.step).toBe('template');
    expect(t.vm.error).toBe('An AI turn is running in this project');
    await t.vm.next();
    expect(t.vm.step).toBe('theme');
    expect(t.vm.error).toBeNull();
  });

  it('a failed index copy does not stop the wizard (the written files are indexed anyway)', async () => {
    const t = setUp();
    await t.vm.init('p1');
    await t.vm.next();
    t.fail.set('clone', new Error('index down'));
    await t.vm.next();
    expect(t.vm.step).toBe('theme');
  });

  it('going back and choosing another template writes it; a theme applied before is applied again', async () => {
    const t = setUp();
    await t.vm.init('p1');
    await t.vm.next();
    t.vm.chooseTemplate('blog');
    await t.vm.next();
    t.vm.chooseTheme('Forest');
    await t.vm.next();
    t.vm.back();
    t.vm.back();
    t.vm.chooseTemplate('dashboard');
    await t.vm.next();
    await t.vm.next();
    expect(t.calls.filter((c) => /^(apply|theme)/.test(c))).toEqual(['apply p1 blog', 'theme p1 Forest', 'apply p1 dashboard', 'theme p1 Forest']);
  });

  it('needs a name and a first prompt; the prompt is drafted from a saved idea and can be enhanced around the template', async () => {
    const t = setUp();
    t.prompts.set('p1', 'a bakery site');
    await t.vm.init('p1');
    t.vm.setName('   ');
    expect(t.vm.canContinue).toBe(false);
    t.vm.setName('Crumbs');
    await t.vm.next();
    t.vm.chooseTemplate('landing');
    await t.vm.next();
    await t.vm.next();
    await t.vm.next();
    expect(t.vm.prompt).toBe('a bakery site');
    await t.vm.enhancePrompt();
    expect(t.vm.prompt).toBe('Start from the landing template. a bakery site');
    t.vm.setPrompt(' ');
    expect(t.vm.canContinue).toBe(false);
  });

  it('shows why the project could not be loaded', async () => {
    const t = setUp();
    t.fail.set('get', new ApiError('Project not found', 404, 'PROJECTS.NOT_FOUND', null));
    await t.vm.init('p1');
    expect(t.vm.load).toEqual({ kind: 'error', message: 'Project not found' });
    expect(t.vm.canContinue).toBe(false);
  });
});
