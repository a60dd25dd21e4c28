import { describe, expect, it } from '@jest/globals';
import { HOSTILE_SANDBOX_PATHS } from '../testing/contracts/sandbox-host.contract.js';
import { isValidSandboxId, isWithinRoot, resolveSandboxPath, SandboxPathRefused, sandboxPathOutside } from './sandbox-path.js';


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

  it('wraps the coded error in the refusal adapters throw', () => {
    const refusal = new SandboxPathRefused(sandboxPathOutside('../x', 'parent-escape'));
    expect(refusal).toBeInstanceOf(Error);
    expect(refusal.code).toBe('SANDBOX.PATH_OUTSIDE');
    expect(refusal.error.reason).toBe('parent-escape');
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
