import { describe, expect, it } from '@jest/globals';
import { utf8 } from '../testing/auth/pure-sha256.js';
import { HOSTILE_SANDBOX_PATHS, OVER_LONG_SANDBOX_PATHS } from '../testing/contracts/sandbox-files.contract.js';
import {
  isValidSandboxId,
  isWithinRoot,
  MAX_PROJECT_NAME_BYTES,
  MAX_PROJECT_PATH_BYTES,
  resolveSandboxPath,
  SandboxPathRefused,
  sandboxLinkLoop,
  sandboxPathOutside,
  utf8Length,
} from './sandbox-path.js';


describe('resolveSandboxPath', () => {
  it.each(HOSTILE_SANDBOX_PATHS.map((p) => [p]))('refuses %j with SANDBOX.PATH_OUTSIDE', (path) => {
    const result = resolveSandboxPath(path);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.code).toBe('SANDBOX.PATH_OUTSIDE');
      expect(result.error.path).toBe(path);
    }
  });

  it.each([
    ['', '.'],
    ['.', '.'],
    ['./', '.'],
    ['src/App.tsx', 'src/App.tsx'],
    ['./src//App.tsx', 'src/App.tsx'],
    ['src/', 'src'],
    ['src/../index.html', 'index.html'],
    ['a/b/../../c', 'c'],
    ['my file (1).txt', 'my file (1).txt'],
    ['..hidden', '..hidden'],
    ['100%.txt', '100%.txt'],
    ['.env', '.env'],
  ])('accepts %j as %j', (path, expected) => {
    expect(resolveSandboxPath(path)).toEqual({ ok: true, value: expected });
  });

  it('names the reason', () => {
    expect(resolveSandboxPath('/etc')).toEqual({ ok: false, error: sandboxPathOutside('/etc', 'absolute') });
    expect(resolveSandboxPath('../x')).toMatchObject({ ok: false, error: { reason: 'parent-escape' } });
    for (const dots of ['...', '....//', '....//....//etc/passwd', 'src/.../x', '.../']) {
      expect(resolveSandboxPath(dots)).toMatchObject({ ok: false, error: { reason: 'parent-escape' } });
    }
    expect(resolveSandboxPath('src/..a/...b/c..')).toEqual({ ok: true, value: 'src/..a/...b/c..' });
    expect(resolveSandboxPath('%2e%2e')).toMatchObject({ ok: false, error: { reason: 'encoded' } });
  });

  it.each(OVER_LONG_SANDBOX_PATHS.map((p) => [p.slice(0, 30), p]))('refuses %j… with SANDBOX.PATH_TOO_LONG', (_short, path) => {
    const result = resolveSandboxPath(path);
    expect(result).toMatchObject({ ok: false, error: { code: 'SANDBOX.PATH_TOO_LONG' } });
    if (!result.ok) expect(result.error.message).toMatch(/too long/);
  });

  it('counts the limits in UTF-8 bytes, a whole path and each name', () => {
    const name = (bytes: number) => 'n'.repeat(bytes);
    expect(resolveSandboxPath(`src/${name(MAX_PROJECT_NAME_BYTES)}`).ok).toBe(true);
    expect(resolveSandboxPath(`src/${name(MAX_PROJECT_NAME_BYTES + 1)}`)).toMatchObject({ ok: false, error: { part: 'name', limitBytes: 255 } });
    expect(resolveSandboxPath(`src/${'é'.repeat(127)}x`).ok).toBe(true); // 255 bytes
    expect(resolveSandboxPath(`src/${'é'.repeat(128)}`)).toMatchObject({ ok: false, error: { part: 'name' } });
    const exactly = `${'a/'.repeat(MAX_PROJECT_PATH_BYTES / 2 - 1)}bb`;
    expect(exactly.length).toBe(MAX_PROJECT_PATH_BYTES);
    expect(resolveSandboxPath(exactly).ok).toBe(true);
    expect(resolveSandboxPath(`${exactly}c`)).toMatchObject({ ok: false, error: { part: 'path', limitBytes: 1024 } });
    expect(resolveSandboxPath('ü'.repeat(513))).toMatchObject({ ok: false, error: { part: 'path' } }); // 1,026 bytes
    // The refused path is echoed cut short.
    const refused = resolveSandboxPath('x'.repeat(5000));
    expect(!refused.ok && refused.error.path.length).toBeLessThanOrEqual(201);
  });

  it('measures UTF-8 as an encoder does', () => {
    for (const text of ['', 'abc', 'é', '李', '😀', 'a\uD800b', 'mixed é 李 😀']) {
      expect(utf8Length(text)).toBe(utf8(text).length);
    }
  });

  it('wraps the coded error in the refusal adapters throw', () => {
    const refusal = new SandboxPathRefused(sandboxPathOutside('../x', 'parent-escape'));
    expect(refusal).toBeInstanceOf(Error);
    expect(refusal.code).toBe('SANDBOX.PATH_OUTSIDE');
    expect(refusal.error).toMatchObject({ reason: 'parent-escape' });
    const loop = new SandboxPathRefused(sandboxLinkLoop('a/b'));
    expect(loop.code).toBe('SANDBOX.LINK_LOOP');
    expect(loop.message).toMatch(/loop/);
  });
});

describe('isWithinRoot', () => {
  it.each([
    ['/data/p1', '/data/p1', true],
    ['/data/p1', '/data/p1/src/a.ts', true],
    ['/data/p1/', '/data/p1/src', true],
    ['/data/p1', '/data/p10', false],
    ['/data/p1', '/data', false],
    ['/data/p1', '/etc/passwd', false],
  ])('%s contains %s: %s', (root, target, expected) => {
    expect(isWithinRoot(root, target)).toBe(expected);
  });
});

describe('isValidSandboxId', () => {
  it.each(['p1', '3f1c2a9e-0b7d-4c7e-9a51-2f0a8d1e6b40', 'my_project'])('accepts %p', (id) => {
    expect(isValidSandboxId(id)).toBe(true);
  });
  it.each(['', '.', '..', '.git', 'a/b', '-x', 'a b', 'a\u0000', 'x'.repeat(200)])('refuses %p', (id) => {
    expect(isValidSandboxId(id)).toBe(false);
  });
});
