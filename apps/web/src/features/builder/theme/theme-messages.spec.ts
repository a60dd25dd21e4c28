import { describe, expect, it } from '@jest/globals';
import { THEME_PRESETS, type Theme } from '@kiln/domain';
import { parseThemeMessage, reduceThemeDialog, type ThemeDialogState } from './theme-messages';

const [neutral, ocean] = THEME_PRESETS as [Theme, Theme];
const closed: ThemeDialogState = { open: false, selected: neutral, generated: null };
const opened: ThemeDialogState = { ...closed, open: true };

describe('parseThemeMessage', () => {
  it('accepts the three SPEC message types', () => {
    expect(parseThemeMessage({ type: 'close-dialog' })).toEqual({ type: 'close-dialog' });
    expect(parseThemeMessage({ type: 'apply-theme', theme: ocean })).toEqual({ type: 'apply-theme', theme: ocean });
    expect(parseThemeMessage({ type: 'theme-generated', theme: ocean, extra: 1 })).toEqual({ type: 'theme-generated', theme: ocean });
  });

  it('ignores anything else', () => {
    for (const data of [null, 'apply-theme', 42, [], {}, { type: 'open-dialog' }, { type: 'apply-theme' }, { type: 'apply-theme', theme: { name: 'x' } }]) {
      expect(parseThemeMessage(data)).toBeNull();
    }
    const unsafe = { ...ocean, light: { primary: 'red; } * { display: none' } };
    expect(parseThemeMessage({ type: 'apply-theme', theme: unsafe })).toBeNull();
  });
});

describe('reduceThemeDialog', () => {
  it('apply-theme selects the theme and asks for it to be written', () => {
    expect(reduceThemeDialog(opened, { type: 'apply-theme', theme: ocean })).toEqual({ state: { ...opened, selected: ocean }, apply: ocean });
  });

  it('theme-generated selects and remembers the theme without writing', () => {
    expect(reduceThemeDialog(opened, { type: 'theme-generated', theme: ocean })).toEqual({
      state: { open: true, selected: ocean, generated: ocean },
      apply: null,
    });
  });

  it('close-dialog closes and keeps the selection', () => {
    const state = { ...opened, selected: ocean };
    expect(reduceThemeDialog(state, { type: 'close-dialog' })).toEqual({ state: { ...state, open: false }, apply: null });
  });
});
