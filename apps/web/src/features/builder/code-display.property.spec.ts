import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import {
  EMPTY_CODE_DISPLAY,
  type CodeDisplayState,
  fileNameOf,
  hideCodeDisplay,
  openCodeItem,
  removeCodeItem,
  selectCodeItem,
  showCodeDisplay,
} from './code-display';

// Few folders and names, so that duplicate names and re-opened paths are common.
const path = fc
  .tuple(fc.constantFrom('', 'src/', 'lib/', 'src/app/', 'a/(1) '), fc.constantFrom('index.ts', 'App.tsx', 'x.ts'))
  .map(([dir, name]) => `${dir}${name}`);

type Command =
  | { kind: 'open'; path: string; contents: string; origin: 'user' | 'automatic' }
  | { kind: 'remove'; path: string }
  | { kind: 'select'; path: string }
  | { kind: 'hide' }
  | { kind: 'show' };

const command: fc.Arbitrary<Command> = fc.oneof(
  fc.record({ kind: fc.constant('open' as const), path, contents: fc.string({ maxLength: 3 }), origin: fc.constantFrom('user' as const, 'automatic' as const) }),
  fc.record({ kind: fc.constant('remove' as const), path }),
  fc.record({ kind: fc.constant('select' as const), path }),
  fc.constant({ kind: 'hide' as const }),
  fc.constant({ kind: 'show' as const }),
);

function apply(state: CodeDisplayState, c: Command): CodeDisplayState {
  switch (c.kind) {
    case 'open':
      return openCodeItem(state, c, c.origin);
    case 'remove':
      return removeCodeItem(state, c.path);
    case 'select':
      return selectCodeItem(state, c.path);
    case 'hide':
      return hideCodeDisplay(state);
    case 'show':
      return showCodeDisplay(state);
  }
}

describe('code display properties', () => {
  it('paths and labels stay unique, labels name the file, the active item is open', () => {
    fc.assert(
      fc.property(fc.array(command, { maxLength: 60 }), (commands) => {
        let state = EMPTY_CODE_DISPLAY;
        for (const c of commands) {
          state = apply(state, c);
          const paths = state.items.map((i) => i.path);
          const labels = state.items.map((i) => i.label);
          expect(new Set(paths).size).toBe(paths.length);
          expect(new Set(labels).size).toBe(labels.length);
          for (const item of state.items) {
            const name = fileNameOf(item.path);
            expect(item.label === name || new RegExp(`^\\(\\d+\\) `).test(item.label) && item.label.endsWith(name)).toBe(true);
          }
          if (state.items.length === 0) expect(state.activePath).toBeNull();
          else expect(paths).toContain(state.activePath);
        }
      }),
    );
  });

  it('an open shows the latest contents for its path, under an unchanged label', () => {
    fc.assert(
      fc.property(fc.array(command, { maxLength: 40 }), path, fc.string(), (commands, p, contents) => {
        const before = commands.reduce(apply, EMPTY_CODE_DISPLAY);
        const after = openCodeItem(before, { path: p, contents }, 'user');
        const item = after.items.find((i) => i.path === p);
        expect(item?.contents).toBe(contents);
        const previous = before.items.find((i) => i.path === p);
        if (previous) {
          expect(item?.label).toBe(previous.label);
          expect(after.items.length).toBe(before.items.length);
        }
      }),
    );
  });

  it('while hidden by hand, only a person makes the display visible again', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(path, fc.string({ maxLength: 2 })), { maxLength: 20 }), (opens) => {
        let state = hideCodeDisplay(EMPTY_CODE_DISPLAY);
        for (const [p, contents] of opens) state = openCodeItem(state, { path: p, contents }, 'automatic');
        expect(state.visible).toBe(false);
        expect(state.suppressed).toBe(true);
      }),
    );
  });
});
