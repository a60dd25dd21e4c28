import { describe, expect, it } from '@jest/globals';
import { classifyPackageCommand, parsePackageArgument, SUPPORTED_PACKAGE_COMMANDS } from './package-command.js';
import { changePackageJson } from './package-manifest.js';

const kind = (line: string) => classifyPackageCommand(line).kind;

describe('classifyPackageCommand', () => {
  it('reads installs, adds and removes of every manager', () => {
    expect(classifyPackageCommand('npm install dayjs')).toEqual({ kind: 'add', manager: 'npm', packages: [{ name: 'dayjs', version: 'latest' }], section: 'dependencies' });
    expect(classifyPackageCommand('npm i x@1 -D')).toEqual({ kind: 'add', manager: 'npm', packages: [{ name: 'x', version: '1' }], section: 'devDependencies' });
    expect(classifyPackageCommand('npm install @scope/pkg@^2.1.0 --save-dev --no-audit')).toEqual({
      kind: 'add',
      manager: 'npm',
      packages: [{ name: '@scope/pkg', version: '^2.1.0' }],
      section: 'devDependencies',
    });
    expect(classifyPackageCommand("npm i 'zod@>=3 <4' dayjs@~1.11")).toMatchObject({ kind: 'add', packages: [{ name: 'zod', version: '>=3 <4' }, { name: 'dayjs', version: '~1.11' }] });
    expect(classifyPackageCommand('npm uninstall x y@1')).toEqual({ kind: 'remove', manager: 'npm', names: ['x', 'y'] });
    expect(classifyPackageCommand('npm rm x')).toMatchObject({ kind: 'remove' });
    for (const line of ['npm install', 'npm i', 'npm ci', 'npm clean-install', 'yarn', 'yarn install', 'pnpm install', 'pnpm i', 'bun install', '  npm install --loglevel warn  ']) {
      expect([line, kind(line)]).toEqual([line, 'install']);
    }
    expect(classifyPackageCommand('yarn add -D vitest')).toMatchObject({ kind: 'add', manager: 'yarn', section: 'devDependencies' });
    expect(classifyPackageCommand('pnpm add react-router')).toMatchObject({ kind: 'add', manager: 'pnpm' });
    expect(classifyPackageCommand('bun remove left-pad')).toMatchObject({ kind: 'remove', manager: 'bun' });
    expect(classifyPackageCommand('NODE_ENV=development npm i x')).toMatchObject({ kind: 'add' });
    expect(classifyPackageCommand('/usr/bin/npm i x')).toMatchObject({ kind: 'add' });
  });

  it('leaves every other command alone', () => {
    for (const line of ['ls -la', 'npm run build', 'npm test', 'npm start', 'npx vite build', 'npm', 'npm --version', 'yarn build', 'pnpm dlx create-x', 'echo npm install x', 'node -e "1"', 'git status', 'cat package.json | grep npm', 'npm ls', 'npm audit', '']) {
      expect([line, kind(line)]).toEqual([line, 'other']);
    }
  });

  it('refuses what would rewrite node_modules another way, pointing to the supported path', () => {
    for (const line of [
      'npm update',
      'npm dedupe',
      'npm prune',
      'npm rebuild',
      'npm link x',
      'npm audit fix',
      'yarn upgrade',
      'pnpm update',
      'npm install -g typescript',
      'npm i x --no-save',
      'npm i x --prefix /tmp',
      'npm i x --force',
      'npm ci dayjs',
      'npm uninstall',
      'npm i x && npm run build',
      'cd src; npm install',
      'npm i x > log.txt',
      'npm i $(cat list)',
      'npm i github:user/repo',
      'npm i ./local-package',
      'npm i https://example.com/x.tgz',
      'npm i alias@npm:other@1',
      'npm i Bad-Name',
    ]) {
      const answer = classifyPackageCommand(line);
      expect([line, answer.kind]).toEqual([line, 'refused']);
      expect(answer.kind === 'refused' && answer.message.endsWith(SUPPORTED_PACKAGE_COMMANDS)).toBe(true);
    }
  });

  it('reads package arguments as npm does', () => {
    expect(parsePackageArgument('dayjs')).toEqual({ name: 'dayjs', version: 'latest' });
    expect(parsePackageArgument('@types/node@20')).toEqual({ name: '@types/node', version: '20' });
    expect(parsePackageArgument('@types/node')).toEqual({ name: '@types/node', version: 'latest' });
    expect(parsePackageArgument('x@next')).toEqual({ name: 'x', version: 'next' });
    expect(parsePackageArgument('x@file:../y')).toBeNull();
    expect(parsePackageArgument('git+https://x')).toBeNull();
  });
});

describe('changePackageJson', () => {
  const manifest = '{\n  "name": "app",\n  "scripts": { "dev": "vite" },\n  "dependencies": { "react": "^19.0.0" },\n  "devDependencies": { "dayjs": "^1.0.0" }\n}\n';

  it('adds into one section (moving a package from the other), sorted, keeping every other field', () => {
    const edit = changePackageJson(manifest, { kind: 'add', packages: [{ name: 'dayjs', version: 'latest' }, { name: 'axios', version: '^1.7.0' }], section: 'dependencies' });
    expect(edit.ok).toBe(true);
    if (!edit.ok) return;
    expect(JSON.parse(edit.value.text)).toEqual({ name: 'app', scripts: { dev: 'vite' }, dependencies: { axios: '^1.7.0', dayjs: 'latest', react: '^19.0.0' }, devDependencies: {} });
    expect(Object.keys(JSON.parse(edit.value.text).dependencies)).toEqual(['axios', 'dayjs', 'react']);
    expect(edit.value.changed).toBe(true);
  });

  it('removes, says when a package was not there, and reports no change for nothing to do', () => {
    const edit = changePackageJson(manifest, { kind: 'remove', names: ['react', 'nothere'] });
    expect(edit.ok && JSON.parse(edit.value.text).dependencies).toEqual({});
    expect(edit.ok && edit.value.notes).toEqual(['nothere is not in package.json.']);
    const same = changePackageJson(manifest, { kind: 'add', packages: [{ name: 'react', version: '^19.0.0' }], section: 'dependencies' });
    expect(same.ok && [same.value.changed, same.value.text === manifest]).toEqual([false, true]);
  });

  it('refuses a package.json Kiln cannot install from, and a set over the limit', () => {
    expect(changePackageJson('not json', { kind: 'remove', names: ['x'] })).toMatchObject({ ok: false, error: { code: 'SANDBOX.DEPENDENCIES_REFUSED', reason: 'not-json' } });
    const many = Array.from({ length: 301 }, (_, i) => ({ name: `p${i}`, version: '1' }));
    expect(changePackageJson('{}', { kind: 'add', packages: many, section: 'dependencies' })).toMatchObject({ ok: false, error: { reason: 'too-many' } });
  });
});
