import { describe, expect, it } from '@jest/globals';
import { bracesBalanced, CURRENT_THEME_NAME, generateTheme, mergeTheme, THEME_PRESETS, THEME_STYLESHEET_PATH, type Theme } from '@kiln/domain';
import { ApiError } from '../../../app/ports';
import { FakeToasts } from '../../../testing/ui-fakes';
import { FakeSandboxApi, FakeWindowMessages } from '../builder.fakes';
import { ThemeBuilderVm } from './theme-builder.vm';

const OWN_ORIGIN = 'http://localhost:5173';
const STYLESHEET = `@import 'tailwindcss';\n\n:root {\n  --primary: oklch(0.205 0 0);\n}\n\n.dark {\n  --primary: oklch(0.922 0 0);\n}\n`;
const ocean = THEME_PRESETS.find((t) => t.name === 'Ocean') as Theme;
const first = THEME_PRESETS[0] as Theme;
/** The commits the fake starts with (builder.fakes.ts). */
const STARTING_COMMITS = 2;

const settle = async () => {
  for (let i = 0; i < 5; i += 1) await new Promise((resolve) => setImmediate(resolve));
};

function setup(stylesheet = STYLESHEET) {
  const api = new FakeSandboxApi();
  api.files.set(THEME_STYLESHEET_PATH, stylesheet);
  const toasts = new FakeToasts();
  const messages = new FakeWindowMessages();
  const vm = new ThemeBuilderVm(api, toasts, messages, OWN_ORIGIN);
  let applied = 0;
  vm.setProject('p1', () => {
    applied += 1;
  });
  return { api, toasts, messages, vm, applied: () => applied };
}

describe('ThemeBuilderVm', () => {
  it('opens and closes (the builder flag), listening to window messages only while open', () => {
    const { vm, messages } = setup();
    expect(vm.open).toBe(false);
    vm.openDialog();
    expect(vm.open).toBe(true);
    expect(messages.subscribers).toBe(1);
    vm.closeDialog();
    expect(vm.open).toBe(false);
    expect(messages.subscribers).toBe(0);
  });

  it('offers the presets and previews the selected one in both modes', () => {
    const { vm } = setup();
    expect(vm.presets.map((t) => t.name)).toEqual(THEME_PRESETS.map((t) => t.name));
    vm.select(ocean);
    expect(vm.lightSwatches.find((s) => s.name === 'primary')?.value).toBe(ocean.light['primary']);
    expect(vm.darkSwatches.find((s) => s.name === 'primary')?.value).toBe(ocean.dark['primary']);
  });

  it('generates a theme from the description and selects it', () => {
    const { vm } = setup();
    expect(vm.canGenerate).toBe(false);
    vm.setSeed('bold purple');
    vm.generate();
    expect(vm.selected).toEqual(generateTheme('bold purple'));
    expect(vm.generated).toEqual(generateTheme('bold purple'));
  });

  it('Apply sends the theme to apply-theme, which writes the merged stylesheet and commits "Apply theme <name>"; the dialog closes', async () => {
    const { vm, api, toasts, applied } = setup();
    vm.openDialog();
    vm.select(ocean);
    await expect(vm.apply()).resolves.toBe('applied');
    // Opening read the current theme; applying is one request: the server reads, merges, writes and commits under the project's turn lock.
    expect(api.calls).toEqual(['readFile src/index.css', 'applyTheme Ocean']);
    expect(api.appliedThemes).toEqual([{ projectId: 'p1', theme: ocean }]);
    expect(api.writes).toHaveLength(1);
    const written = api.writes[0]?.content ?? '';
    expect(api.writes[0]?.path).toBe('src/index.css');
    expect(written).toContain(`--primary: ${ocean.light['primary']};`);
    expect(written).toContain(`--primary: ${ocean.dark['primary']};`);
    expect(written).toContain("@import url('https://fonts.googleapis.com/css2?family=Inter");
    expect(bracesBalanced(written)).toBe(true);
    expect(api.commits[0]).toMatchObject({ message: 'Apply theme Ocean', files_changed: ['src/index.css'] });
    expect(toasts.shown.at(-1)).toMatchObject({ title: 'Theme Ocean applied', variant: 'success' });
    expect(vm.open).toBe(false);
    expect(vm.applying).toBe(false);
    expect(applied()).toBe(1);
  });

  it('an unbalanced stylesheet is kept: nothing written, nothing committed, the user is told', async () => {
    const { vm, api, toasts, applied } = setup(':root {\n  --primary: red;\n');
    vm.openDialog();
    await expect(vm.apply()).resolves.toBe('kept-original');
    expect(api.writes).toEqual([]);
    expect(api.calls).toEqual(['readFile src/index.css', `applyTheme ${first.name}`]);
    expect(api.commits).toHaveLength(STARTING_COMMITS);
    expect(toasts.shown.at(-1)).toMatchObject({ title: 'Nothing was changed', description: expect.stringContaining('src/index.css'), variant: 'warning' });
    expect(vm.open).toBe(true);
    expect(applied()).toBe(0);
  });

  it('a theme already applied changes nothing and says so; the dialog stays open', async () => {
    const { vm, api, toasts, applied } = setup();
    vm.select(ocean);
    await vm.apply();
    vm.openDialog();
    await expect(vm.apply()).resolves.toBe('unchanged');
    expect(api.writes).toHaveLength(1);
    expect(api.commits).toHaveLength(STARTING_COMMITS + 1);
    expect(toasts.shown.at(-1)).toMatchObject({ title: 'Ocean is already applied', variant: 'info' });
    expect(vm.open).toBe(true);
    expect(applied()).toBe(1);
  });

  it('a failure is shown as an error toast and rethrown (SPEC §8)', async () => {
    const { vm, api, toasts, applied } = setup();
    api.failures.set('applyTheme', new Error('disk full'));
    vm.openDialog();
    await expect(vm.apply()).rejects.toThrow('disk full');
    expect(toasts.shown.at(-1)).toMatchObject({ title: 'The theme could not be applied', description: 'disk full', variant: 'error' });
    expect(api.writes).toEqual([]);
    expect(api.commits).toHaveLength(STARTING_COMMITS);
    expect(vm.applying).toBe(false);
    expect(vm.open).toBe(true);
    expect(applied()).toBe(0);

    const missing = setup();
    missing.api.files.delete(THEME_STYLESHEET_PATH);
    await expect(missing.vm.apply()).rejects.toThrow('File not found');

    // A turn holds the project: the server's 409 is shown in its own words and rethrown.
    const busy = setup();
    const detail = 'This project is being changed right now (the assistant is working on it). Try again when it has finished.';
    busy.api.failures.set('applyTheme', new ApiError(detail, 409, 'PROJECTS.BUSY', { code: 'PROJECTS.BUSY', detail }));
    await expect(busy.vm.apply()).rejects.toMatchObject({ status: 409, code: 'PROJECTS.BUSY' });
    expect(busy.toasts.shown.at(-1)).toMatchObject({ title: 'The theme could not be applied', description: detail, variant: 'error' });
    expect(busy.api.writes).toEqual([]);
  });

  it('an invalid theme is refused before anything is sent', async () => {
    const { vm, api } = setup();
    await expect(vm.applyTheme({ ...ocean, light: { primary: 'red; } body { x: y' } })).rejects.toThrow('The theme is not valid');
    expect(api.calls).toEqual([]);
  });

  it('a failed commit still applies the theme, with a warning', async () => {
    const { vm, api, toasts } = setup();
    api.commitResult = { success: false, message: 'nothing to commit' };
    await expect(vm.apply()).resolves.toBe('applied');
    expect(toasts.shown.at(-1)).toMatchObject({ variant: 'warning', description: 'The version was not saved: nothing to commit' });
  });

  it('accepts theme messages from its own origin only, and ignores malformed ones', async () => {
    const { vm, api, messages } = setup();
    vm.openDialog();
    messages.post('https://evil.example', { type: 'apply-theme', theme: ocean });
    messages.post(OWN_ORIGIN, { type: 'apply-theme', theme: { name: 'bad' } });
    messages.post(OWN_ORIGIN, { type: 'something-else' });
    await settle();
    expect(api.appliedThemes).toEqual([]);
    expect(api.writes).toEqual([]);
    expect(vm.open).toBe(true);

    messages.post(OWN_ORIGIN, { type: 'theme-generated', theme: ocean });
    expect(vm.selected).toEqual(ocean);
    messages.post(OWN_ORIGIN, { type: 'apply-theme', theme: ocean });
    await settle();
    expect(api.calls).toContain('applyTheme Ocean');
    expect(api.commits[0]?.message).toBe('Apply theme Ocean');
    expect(vm.open).toBe(false);

    vm.openDialog();
    messages.post(OWN_ORIGIN, { type: 'close-dialog' });
    expect(vm.open).toBe(false);
  });
});

describe('ThemeBuilderVm theme list', () => {
  it('adds a generated theme after the presets and marks the selected one', () => {
    const { vm } = setup();
    expect(vm.isSelected(THEME_PRESETS[0] as Theme)).toBe(true);
    vm.setSeed('calm ocean');
    vm.generate();
    expect(vm.themes.map((t) => t.name)).toEqual([...THEME_PRESETS.map((t) => t.name), 'Calm Ocean']);
    expect(vm.isSelected(vm.themes.at(-1) as Theme)).toBe(true);
    vm.setSeed('ocean');
    vm.generate();
    expect(vm.themes).toHaveLength(THEME_PRESETS.length);
  });
});

describe('ThemeBuilderVm: the app’s theme now', () => {
  it('opening the dialog reads src/index.css and selects the preset it matches', async () => {
    const applied = mergeTheme(STYLESHEET, ocean).stylesheet;
    const { vm } = setup(applied);
    vm.openDialog();
    await settle();
    expect(vm.selected.name).toBe('Ocean');
    expect(vm.isCurrent(ocean)).toBe(true);
    expect(vm.themes).toEqual(THEME_PRESETS);
  });

  it('a stylesheet no preset matches shows a "Current theme" entry, first, selected', async () => {
    const { vm } = setup();
    vm.openDialog();
    await settle();
    expect(vm.selected).toEqual({ name: CURRENT_THEME_NAME, light: { primary: 'oklch(0.205 0 0)' }, dark: { primary: 'oklch(0.922 0 0)' }, fonts: [] });
    expect(vm.themes[0]?.name).toBe(CURRENT_THEME_NAME);
    expect(vm.themes.slice(1)).toEqual(THEME_PRESETS);
    expect(vm.isCurrent(vm.themes[0]!)).toBe(true);
  });

  it('does not override a theme picked while the stylesheet was being read', async () => {
    const { vm } = setup(mergeTheme(STYLESHEET, ocean).stylesheet);
    vm.openDialog();
    const forest = THEME_PRESETS.find((t) => t.name === 'Forest')!;
    vm.select(forest);
    await settle();
    expect(vm.selected.name).toBe('Forest');
    expect(vm.isCurrent(ocean)).toBe(true);
  });

  it('an unreadable stylesheet leaves the default selection', async () => {
    const { vm, api } = setup();
    api.files.delete(THEME_STYLESHEET_PATH);
    const before = vm.selected;
    vm.openDialog();
    await settle();
    expect(vm.selected).toBe(before);
    expect(vm.themes).toEqual(THEME_PRESETS);
  });
});
