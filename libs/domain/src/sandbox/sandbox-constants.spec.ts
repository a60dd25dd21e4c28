import { describe, expect, it } from '@jest/globals';
import { AI_SUPPORT_DIR } from './code-error.js';
import { DEFAULT_COMMAND_TIMEOUT_SECONDS, DEFAULT_WORKING_DIR } from './sandbox-commands.port.js';
import { TREE_IGNORE_LIST } from './sandbox-files.port.js';

describe('sandbox constants (SPEC §7, §9)', () => {
  it('runs commands for 30 s in the project root by default', () => {
    expect(DEFAULT_COMMAND_TIMEOUT_SECONDS).toBe(30);
    expect(DEFAULT_WORKING_DIR).toBe('.');
  });

  it('ignores the SPEC §9 list in the tree', () => {
    expect(TREE_IGNORE_LIST).toEqual([
      'node_modules',
      'dist',
      'build',
      'public',
      'next',
      '.git',
      '.next',
      '.nuxt',
      'package-lock.json',
      '*.tsbuildinfo',
      'repo-map.json',
      '.kiln',
      'dev.db',
      '.env',
      '.kiln-build',
      'temp-query.sql',
      '.npm',
      '.cache',
      '.pnpm-store',
      '.eslintcache',
    ]);
    expect(Object.isFrozen(TREE_IGNORE_LIST)).toBe(true);
  });

  it('hides the same AI-support folder whose errors are ignored', () => {
    expect(AI_SUPPORT_DIR.endsWith(`/${TREE_IGNORE_LIST[11]}`)).toBe(true);
  });
});
