import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { dependencySetFromPackageJson } from './dependency-set.js';
import { classifyPackageCommand } from './package-command.js';
import { changePackageJson } from './package-manifest.js';

const name = fc.oneof(
  fc.stringMatching(/^[a-z][a-z0-9-]{0,12}$/),
  fc.tuple(fc.stringMatching(/^[a-z][a-z0-9]{0,6}$/), fc.stringMatching(/^[a-z][a-z0-9-]{0,8}$/)).map(([scope, n]) => `@${scope}/${n}`),
);
const version = fc.oneof(
  fc.constantFrom('latest', 'next', '*', '1.x'),
  fc.tuple(fc.constantFrom('', '^', '~', '>='), fc.nat(20), fc.nat(20), fc.nat(20)).map(([op, a, b, c]) => `${op}${a}.${b}.${c}`),
);
const pkg = fc.record({ name, version: fc.option(version, { nil: undefined }) });
const installWord = fc.constantFrom('install', 'i', 'add', 'isntall', 'in');
const devFlag = fc.constantFrom('-D', '--save-dev');
const harmless = fc.constantFrom('--no-audit', '--no-fund', '--prefer-offline', '--silent', '--save-exact', '--legacy-peer-deps');
const operator = fc.constantFrom('&&', '||', ';', '|', '>', '&');
/** Argument words: package names, flags and shell-free words. */
const shellFreeWord = fc.stringMatching(/^[A-Za-z0-9._@/=^:+-]{1,12}$/);

const spec = (p: { name: string; version?: string | undefined }) => (p.version === undefined ? p.name : `${p.name}@${p.version}`);
/** As typed in a shell: a range with `>` or `<` in quotes (unquoted it is a redirect, refused). */
const typed = (p: { name: string; version?: string | undefined }) => (/[<>]/.test(spec(p)) ? `'${spec(p)}'` : spec(p));

describe('package command properties', () => {
  it('never throws, whatever the line', () => {
    fc.assert(fc.property(fc.string(), (line) => void classifyPackageCommand(line)));
  });

  it('an npm install of packages adds exactly them (the last of a name wins), wherever the flags stand', () => {
    fc.assert(
      fc.property(installWord, fc.array(pkg, { minLength: 1, maxLength: 5 }), fc.option(devFlag, { nil: undefined }), fc.array(harmless, { maxLength: 2 }), fc.nat(), (word, packages, dev, flags, at) => {
        const args = packages.map(typed);
        const extra = dev === undefined ? flags : [dev, ...flags];
        for (const flag of extra) args.splice(at % (args.length + 1), 0, flag);
        const answer = classifyPackageCommand(['npm', word, ...args].join(' '));
        const expected = new Map(packages.map((p) => [p.name, p.version ?? 'latest']));
        expect(answer).toEqual({
          kind: 'add',
          manager: 'npm',
          section: dev === undefined ? 'dependencies' : 'devDependencies',
          packages: [...expected].map(([n, v]) => ({ name: n, version: v })),
        });
      }),
    );
  });

  it('an install chained with another command is never run as an install (refused)', () => {
    fc.assert(
      fc.property(installWord, pkg, operator, fc.array(shellFreeWord, { minLength: 1, maxLength: 3 }), fc.boolean(), (word, p, op, other, first) => {
        const install = `npm ${word} ${typed(p)}`;
        const line = first ? `${install} ${op} ${other.join(' ')}` : `${other.join(' ')} ${op} ${install}`;
        expect(classifyPackageCommand(line).kind).toBe('refused');
      }),
    );
  });

  it('a line whose command is not a package manager runs as it is', () => {
    const command = fc.stringMatching(/^[a-z]{1,8}$/).filter((w) => !['npm', 'pnpm', 'yarn', 'bun'].includes(w));
    fc.assert(
      fc.property(command, fc.array(shellFreeWord, { maxLength: 5 }), (cmd, args) => {
        expect(classifyPackageCommand([cmd, ...args].join(' '))).toEqual({ kind: 'other' });
      }),
    );
  });

  it('adding then removing packages gives back the dependency set it started from; every result installs by the rules', () => {
    const start = fc.dictionary(name, version, { maxKeys: 5 });
    fc.assert(
      fc.property(start, fc.array(pkg, { minLength: 1, maxLength: 4 }), fc.boolean(), (deps, packages, dev) => {
        const fresh = packages.filter((p) => !(p.name in deps));
        fc.pre(fresh.length > 0);
        const text = JSON.stringify({ name: 'app', dependencies: deps });
        const added = changePackageJson(text, {
          kind: 'add',
          packages: fresh.map((p) => ({ name: p.name, version: p.version ?? 'latest' })),
          section: dev ? 'devDependencies' : 'dependencies',
        });
        if (!added.ok) throw new Error(added.error.message);
        const set = dependencySetFromPackageJson(added.value.text);
        expect(set.ok).toBe(true);
        for (const p of fresh) expect(set.ok && set.value[dev ? 'devDependencies' : 'dependencies'][p.name]).toBe(p.version ?? 'latest');
        const removed = changePackageJson(added.value.text, { kind: 'remove', names: fresh.map((p) => p.name) });
        if (!removed.ok) throw new Error(removed.error.message);
        expect(dependencySetFromPackageJson(removed.value.text)).toEqual(dependencySetFromPackageJson(text));
        expect(JSON.parse(removed.value.text).name).toBe('app');
      }),
    );
  });
});
