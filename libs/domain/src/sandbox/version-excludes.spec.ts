import { describe, expect, it } from '@jest/globals';
import { isExcludedFromVersions, VERSION_EXCLUDES } from './version-excludes.js';

describe('version excludes', () => {
  it('leaves tool caches, logs, installed packages and build output out of versions', () => {
    for (const path of [
      '.npm/_cacache/index-v5/aa/bb',
      '.npm/_logs/2026-01-01-debug-0.log',
      '.cache/vite/deps.json',
      'src/.cache/x',
      '.pnpm-store/v3/files/00/abc',
      '.yarn/cache/dayjs-npm-1.11.0.zip',
      'npm-debug.log',
      'npm-debug.log.1234',
      'yarn-error.log',
      '.eslintcache',
      'tsconfig.tsbuildinfo',
      'node_modules',
      'node_modules/dayjs/index.js',
      'dist/index.html',
      '.kiln-build/dist/x.js',
    ]) {
      expect([path, isExcludedFromVersions(path)]).toEqual([path, true]);
    }
  });

  it('keeps the project own files, including look-alikes', () => {
    for (const path of ['src/App.tsx', 'package.json', 'src/cache.ts', 'src/npm.ts', 'build', 'src/dist.ts', '.yarnrc.yml', '.yarn/releases/yarn.cjs', 'src/.yarn/cache/x', 'docs/npm-debug.md']) {
      expect([path, isExcludedFromVersions(path)]).toEqual([path, false]);
    }
  });

  it('is frozen and holds the folders the hosts must never save', () => {
    expect(Object.isFrozen(VERSION_EXCLUDES)).toBe(true);
    expect(VERSION_EXCLUDES).toEqual(expect.arrayContaining(['node_modules', '.npm/', '.cache/', '.pnpm-store/', '.yarn/cache/', 'npm-debug.log*', '.eslintcache', '*.tsbuildinfo']));
  });
});
