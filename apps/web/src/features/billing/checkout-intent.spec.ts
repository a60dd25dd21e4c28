import { describe, expect, it } from '@jest/globals';
import { STORAGE_KEYS } from '../../app/ports';
import { MemoryStorage } from '../../testing/ui-fakes';
import { CheckoutIntent, safeReturnPath } from './checkout-intent';

describe('safeReturnPath: only relative paths of this site', () => {
  it.each(['/builder/p1', '/settings?tab=plan', '/', '/builder/p1?tab=code#chat'])('keeps %s', (path) => {
    expect(safeReturnPath(path)).toBe(path);
  });

  it.each([
    ['protocol-relative', '//evil.example/x'],
    ['backslash host', '/\\evil.example'],
    ['absolute URL', 'https://evil.example/builder'],
    ['javascript URL', 'javascript:alert(1)'],
    ['relative without slash', 'builder/p1'],
    ['empty', ''],
    ['whitespace', '/ /evil'],
    ['control character', '/\t/evil.example'],
    ['newline', '/builder\n'],
    ['too long', `/${'a'.repeat(3000)}`],
  ])('refuses %s', (_, path) => {
    expect(safeReturnPath(path)).toBeNull();
  });

  it('refuses what is not a string', () => {
    expect(safeReturnPath(undefined)).toBeNull();
    expect(safeReturnPath(null)).toBeNull();
    expect(safeReturnPath(42)).toBeNull();
  });
});

describe('CheckoutIntent', () => {
  it('remembers the kind and a safe return path, and gives them back once', () => {
    const intent = new CheckoutIntent(new MemoryStorage());
    intent.remember('add_on', '/builder/p1');
    expect(intent.take()).toEqual({ kind: 'add_on', returnPath: '/builder/p1' });
    expect(intent.take()).toBeNull();
  });

  it('drops an unsafe return path when remembering', () => {
    const intent = new CheckoutIntent(new MemoryStorage());
    intent.remember('plan', '//evil.example');
    expect(intent.take()).toEqual({ kind: 'plan', returnPath: null });
  });

  it('re-validates what storage holds (it may have been tampered with)', () => {
    const storage = new MemoryStorage({ [STORAGE_KEYS.checkoutIntent]: JSON.stringify({ kind: 'plan', returnPath: '//evil.example' }) });
    expect(new CheckoutIntent(storage).take()).toEqual({ kind: 'plan', returnPath: null });
    storage.set(STORAGE_KEYS.checkoutIntent, JSON.stringify({ kind: 'steal', returnPath: '/x' }));
    expect(new CheckoutIntent(storage).take()).toBeNull();
    storage.set(STORAGE_KEYS.checkoutIntent, '{not json');
    expect(new CheckoutIntent(storage).take()).toBeNull();
    expect(storage.get(STORAGE_KEYS.checkoutIntent)).toBeNull();
  });
});
