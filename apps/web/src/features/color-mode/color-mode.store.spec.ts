import { describe, expect, it } from '@jest/globals';
import { autorun } from 'mobx';
import { STORAGE_KEYS } from '../../app/ports';
import { FakeColorSchemeMedia, MemoryStorage } from '../../testing/ui-fakes';
import { ColorModeStore, parseColorMode } from './color-mode.store';

function setup(stored: string | null, systemDark = false) {
  const storage = new MemoryStorage(stored === null ? {} : { [STORAGE_KEYS.colorMode]: stored });
  const media = new FakeColorSchemeMedia(systemDark);
  return { storage, media, store: new ColorModeStore(storage, media) };
}

describe('ColorModeStore (SPEC §2 color mode)', () => {
  it('follows the system setting at start when nothing is stored', () => {
    expect(setup(null, true).store.resolved).toBe('dark');
    expect(setup(null, false).store.resolved).toBe('light');
    expect(setup(null).store.preference).toBe('system');
  });

  it('uses the stored mode over the system setting', () => {
    expect(setup('light', true).store.resolved).toBe('light');
    expect(setup('dark', false).store.resolved).toBe('dark');
  });

  it('ignores a stored value that is not a mode', () => {
    const { store } = setup('purple', true);
    expect(store.preference).toBe('system');
    expect(store.resolved).toBe('dark');
  });

  it('keeps a chosen mode in local storage', () => {
    const { store, storage } = setup(null);
    store.setPreference('dark');
    expect(storage.get(STORAGE_KEYS.colorMode)).toBe('dark');
    expect(store.resolved).toBe('dark');
  });

  it('the toggle cycles system → light → dark → system', () => {
    const { store } = setup(null);
    const seen = [store.preference];
    for (let i = 0; i < 3; i += 1) {
      store.cycle();
      seen.push(store.preference);
    }
    expect(seen).toEqual(['system', 'light', 'dark', 'system']);
  });

  it('tracks a live change of the system setting while on system', () => {
    const { store, media } = setup(null, false);
    const seen: string[] = [];
    const dispose = autorun(() => seen.push(store.resolved));
    media.change(true);
    dispose();
    expect(seen).toEqual(['light', 'dark']);
  });

  it('a page can force a mode while it is mounted, whatever the preference', () => {
    const { store } = setup('light');
    const release = store.force('dark');
    expect(store.resolved).toBe('dark');
    store.setPreference('light');
    expect(store.resolved).toBe('dark');
    release();
    expect(store.resolved).toBe('light');
  });

  it('the latest forcing page wins, and releasing it restores the earlier one', () => {
    const { store } = setup(null, false);
    const releaseDark = store.force('dark');
    const releaseLight = store.force('light');
    expect(store.resolved).toBe('light');
    releaseLight();
    expect(store.resolved).toBe('dark');
    releaseDark();
    expect(store.forced).toBeNull();
  });

  it('parses only the three modes', () => {
    expect(['system', 'light', 'dark', 'Dark', '', null].map(parseColorMode)).toEqual([
      'system',
      'light',
      'dark',
      null,
      null,
      null,
    ]);
  });
});
