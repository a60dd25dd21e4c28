import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { resolveSandboxPath } from './sandbox-path.js';

/** How a POSIX file system resolves `requested` under `root` ('..' at '/' stays at '/'), without symlinks. */
function fileSystemResolve(root: string, requested: string): string {
  const parts = requested.startsWith('/') ? [] : root.split('/').filter(Boolean);
  for (const segment of requested.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') parts.pop();
    else parts.push(segment);
  }
  return `/${parts.join('/')}`;
}

/** What a later layer might do to a path: URL-decode it (twice), or treat '\' as a separator. */
function decodings(path: string): string[] {
  const out = [path, path.replaceAll('\\', '/')];
  try {
    const once = decodeURIComponent(path);
    out.push(once, decodeURIComponent(once));
  } catch {
    // not decodable: nothing more to try
  }
  return out;
}

const piece = fc.constantFrom('..', '.', '', 'src', 'a', '~', 'C:', '%2e', '%2E', '%2f', '%5c', '%25', '%', '\\', '\u0000', '..%2f', ' ', 'é');
const hostile = fc.oneof(
  fc.array(piece, { maxLength: 8 }).map((parts) => parts.join('/')),
  fc.array(piece, { maxLength: 8 }).map((parts) => parts.join('')),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
);

const ROOT = '/data/sandboxes/p1';
const inside = (p: string) => p === ROOT || p.startsWith(`${ROOT}/`);

describe('resolveSandboxPath properties', () => {
  it('never accepts a path that resolves outside the root, even after decoding', () => {
    fc.assert(
      fc.property(hostile, (requested) => {
        const result = resolveSandboxPath(requested);
        if (!result.ok) return;
        for (const candidate of [requested, result.value]) {
          for (const decoded of decodings(candidate)) {
            expect(inside(fileSystemResolve(ROOT, decoded))).toBe(true);
          }
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('answers a normal form: relative, no dot segments, stable when resolved again', () => {
    fc.assert(
      fc.property(hostile, (requested) => {
        const result = resolveSandboxPath(requested);
        if (!result.ok) return;
        const value = result.value;
        expect(value.startsWith('/')).toBe(false);
        if (value !== '.') expect(value.split('/').every((s) => s !== '' && s !== '.' && s !== '..')).toBe(true);
        expect(resolveSandboxPath(value)).toEqual({ ok: true, value });
        expect(fileSystemResolve(ROOT, value)).toBe(fileSystemResolve(ROOT, requested));
      }),
      { numRuns: 2000 },
    );
  });

  it('accepts every plain relative path made of ordinary names', () => {
    const name = fc.stringMatching(/^[A-Za-z0-9_][A-Za-z0-9_.-]{0,10}$/).filter((n) => n !== '..' && n !== '.');
    fc.assert(
      fc.property(fc.array(name, { minLength: 1, maxLength: 6 }), (names) => {
        expect(resolveSandboxPath(names.join('/'))).toEqual({ ok: true, value: names.join('/') });
      }),
    );
  });
});
