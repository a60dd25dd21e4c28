import { describe, expect, it } from '@jest/globals';
import { STORAGE_KEYS } from '../app/ports';
import { BrowserKeyValueStorage } from './browser-storage';
import { InMemoryKeyValueStorage } from './memory-storage';
import { StoredSavedPrompts } from './saved-prompts';

/** A Storage that throws like Safari's private mode or a full quota. */
const broken = {
  getItem: () => {
    throw new Error('SecurityError');
  },
  setItem: () => {
    throw new Error('QuotaExceededError');
  },
  removeItem: () => {
    throw new Error('SecurityError');
  },
} as unknown as Storage;

function memoryStorage(): Storage {
  const values = new Map<string, string>();
  return {
    getItem: (k: string) => values.get(k) ?? null,
    setItem: (k: string, v: string) => void values.set(k, v),
    removeItem: (k: string) => void values.delete(k),
  } as unknown as Storage;
}

describe('BrowserKeyValueStorage', () => {
  it('reads and writes through the Storage it wraps', () => {
    const storage = new BrowserKeyValueStorage(memoryStorage());
    storage.set('a', '1');
    expect(storage.get('a')).toBe('1');
    storage.remove('a');
    expect(storage.get('a')).toBeNull();
  });

  it('never throws when storage is missing or refuses', () => {
    for (const storage of [new BrowserKeyValueStorage(broken), new BrowserKeyValueStorage(null)]) {
      expect(() => storage.set('a', '1')).not.toThrow();
      expect(storage.get('a')).toBeNull();
      expect(() => storage.remove('a')).not.toThrow();
    }
  });
});

describe('StoredSavedPrompts', () => {
  it('keeps prompts by project id or home under one key', () => {
    const storage = new InMemoryKeyValueStorage();
    const prompts = new StoredSavedPrompts(storage);
    prompts.set('home', 'A todo app');
    prompts.set('p1', 'Add dark mode');
    expect(prompts.get('home')).toBe('A todo app');
    expect(JSON.parse(storage.get(STORAGE_KEYS.savedPrompts) ?? '{}')).toEqual({ home: { prompt: 'A todo app' }, p1: { prompt: 'Add dark mode' } });
    prompts.remove('home');
    prompts.remove('p1');
    expect(storage.snapshot()).toEqual({});
  });

  it('drops timestamps on load (SPEC §5) and survives unreadable data', () => {
    const storage = new InMemoryKeyValueStorage({ [STORAGE_KEYS.savedPrompts]: JSON.stringify({ home: { prompt: 'x', timestamp: 1 }, bad: 3 }) });
    const prompts = new StoredSavedPrompts(storage);
    prompts.set('p1', 'y');
    expect(JSON.parse(storage.get(STORAGE_KEYS.savedPrompts) ?? '{}')).toEqual({ home: { prompt: 'x' }, p1: { prompt: 'y' } });

    expect(new StoredSavedPrompts(new InMemoryKeyValueStorage({ [STORAGE_KEYS.savedPrompts]: '{nope' })).get('home')).toBeNull();
  });
});
