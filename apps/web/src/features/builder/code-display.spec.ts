import { describe, expect, it } from '@jest/globals';
import {
  EMPTY_CODE_DISPLAY,
  type CodeDisplayState,
  fileNameOf,
  hideCodeDisplay,
  openCodeItem,
  removeCodeItem,
  resetCodeDisplaySuppression,
  selectCodeItem,
  showCodeDisplay,
  updateCodeItemContents,
} from './code-display';

const open = (state: CodeDisplayState, path: string, contents = `// ${path}`, origin: 'user' | 'automatic' = 'user') =>
  openCodeItem(state, { path, contents }, origin);

describe('code display', () => {
  it('opens items in order and makes the newest active', () => {
    const state = open(open(EMPTY_CODE_DISPLAY, 'src/App.tsx'), 'src/main.tsx');
    expect(state.items.map((i) => i.label)).toEqual(['App.tsx', 'main.tsx']);
    expect(state.activePath).toBe('src/main.tsx');
  });

  it('replaces the contents of an item whose path is already open, keeping its tab', () => {
    let state = open(EMPTY_CODE_DISPLAY, 'src/App.tsx', 'old');
    state = open(state, 'src/main.tsx');
    state = open(state, 'src/App.tsx', 'new');
    expect(state.items).toEqual([
      { path: 'src/App.tsx', contents: 'new', label: 'App.tsx' },
      { path: 'src/main.tsx', contents: '// src/main.tsx', label: 'main.tsx' },
    ]);
    expect(state.activePath).toBe('src/App.tsx');
  });

  it("prefixes a duplicate name from another path with '(n) ', the next free number", () => {
    let state = open(EMPTY_CODE_DISPLAY, 'src/index.ts');
    state = open(state, 'lib/index.ts');
    state = open(state, 'api/index.ts');
    expect(state.items.map((i) => i.label)).toEqual(['index.ts', '(1) index.ts', '(2) index.ts']);

    state = removeCodeItem(state, 'lib/index.ts');
    state = open(state, 'web/index.ts');
    expect(state.items.map((i) => i.label)).toEqual(['index.ts', '(2) index.ts', '(1) index.ts']);
  });

  it('never gives two items one label, even for a file literally named like a prefixed one', () => {
    let state = open(EMPTY_CODE_DISPLAY, 'a/x.ts');
    state = open(state, 'b/x.ts'); // (1) x.ts
    state = open(state, 'c/(1) x.ts');
    expect(state.items.map((i) => i.label)).toEqual(['x.ts', '(1) x.ts', '(1) (1) x.ts']);
  });

  it('selects the first remaining item when the active one is removed, or none', () => {
    let state = open(open(open(EMPTY_CODE_DISPLAY, 'a.ts'), 'b.ts'), 'c.ts');
    state = removeCodeItem(state, 'c.ts');
    expect(state.activePath).toBe('a.ts');
    state = selectCodeItem(state, 'b.ts');
    state = removeCodeItem(state, 'a.ts');
    expect(state.activePath).toBe('b.ts');
    state = removeCodeItem(state, 'b.ts');
    expect(state).toMatchObject({ items: [], activePath: null });
  });

  it('changes nothing for unknown paths', () => {
    const state = open(EMPTY_CODE_DISPLAY, 'a.ts');
    expect(removeCodeItem(state, 'zzz')).toBe(state);
    expect(selectCodeItem(state, 'zzz')).toBe(state);
    expect(updateCodeItemContents(state, 'zzz', 'x')).toBe(state);
  });

  it('updates contents on disk changes without switching tabs', () => {
    let state = open(open(EMPTY_CODE_DISPLAY, 'a.ts'), 'b.ts');
    state = updateCodeItemContents(state, 'a.ts', 'fresh');
    expect(state.activePath).toBe('b.ts');
    expect(state.items[0]?.contents).toBe('fresh');
  });

  it('a manual hide keeps automatic opens from showing the display until reset', () => {
    let state = hideCodeDisplay(open(EMPTY_CODE_DISPLAY, 'a.ts'));
    state = open(state, 'b.ts', 'from the AI', 'automatic');
    expect(state).toMatchObject({ visible: false, suppressed: true, activePath: 'b.ts' });
    expect(state.items.map((i) => i.path)).toEqual(['a.ts', 'b.ts']);

    state = resetCodeDisplaySuppression(state);
    state = open(state, 'c.ts', '', 'automatic');
    expect(state).toMatchObject({ visible: true, suppressed: false });
  });

  it('a person opening a file, or showing the display, is the reset', () => {
    const hidden = hideCodeDisplay(EMPTY_CODE_DISPLAY);
    expect(open(hidden, 'a.ts')).toMatchObject({ visible: true, suppressed: false });
    expect(showCodeDisplay(hidden)).toMatchObject({ visible: true, suppressed: false });
  });

  it('automatic opens show a display that was not hidden by hand', () => {
    expect(open({ ...EMPTY_CODE_DISPLAY, visible: false }, 'a.ts', '', 'automatic').visible).toBe(true);
  });

  it('reads the file name from either kind of slash', () => {
    expect(fileNameOf('src/components/Button.tsx')).toBe('Button.tsx');
    expect(fileNameOf('src\\x.css')).toBe('x.css');
    expect(fileNameOf('package.json')).toBe('package.json');
    expect(fileNameOf('src/dir/')).toBe('dir');
  });
});
