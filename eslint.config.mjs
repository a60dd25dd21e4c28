// Kiln lint: typescript-eslint's recommended rules (syntax only, no type information, so it
// stays fast) plus the architecture rules of STYLE.md § Boundaries:
//   - Nx tags decide which project may import which (@nx/enforce-module-boundaries);
//   - libs/domain is pure: relative imports only, no clock, no randomness (no-restricted-syntax);
//   - apps are never imported, projects only through their public entry point, and apps/web never
//     imports a server SDK or a Node built-in (@typescript-eslint/no-restricted-imports);
//   - production code never imports test code: testing/ folders, @kiln/domain/testing,
//     @kiln/domain/contracts, @kiln/offline-assistant/testing, @kiln/adapters/testing
//     (no-restricted-imports and no-restricted-syntax).
// The rules and their reasons live in tools/lint/boundaries.mjs; tools/lint/module-boundaries.spec.ts
// proves that each of them reports a deliberate violation.
import nxPlugin from '@nx/eslint-plugin';
import prettier from 'eslint-config-prettier/flat';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

import {
  domainSourceRestrictions,
  domainTestRestrictions,
  domainRestrictedGlobals,
  nxDepConstraints,
  allRestrictedImports,
  webRestrictedImports,
  webProductionRestrictedImports,
  productionRestrictedImports,
  productionLoadRestrictions,
  PRODUCTION_CODE,
  TEST_CODE,
  ensureFreshProjectGraph,
} from './tools/lint/boundaries.mjs';

// @nx/enforce-module-boundaries only reads Nx's *cached* project graph and silently skips every
// check when there is none (fresh clone, CI) or sees stale projects when it is old. Compute it now.
await ensureFreshProjectGraph();

const TS = ['**/*.ts', '**/*.tsx', '**/*.mts', '**/*.cts'];
const DOMAIN_TESTS = ['libs/domain/src/**/*.spec.ts', 'libs/domain/src/testing/**'];
const WEB = ['apps/web/src/**/*.ts', 'apps/web/src/**/*.tsx'];

export default defineConfig(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/.data/**',
      '**/coverage/**',
      '.nx/**',
      '**/test-results/**',
      '**/playwright-report/**',
      '**/*.d.ts',
    ],
  },
  {
    files: TS,
    extends: [tseslint.configs.recommended],
    plugins: { '@nx': nxPlugin },
    rules: {
      // tsconfig's noUnusedParameters accepts a leading underscore; so does the lint.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' },
      ],
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          allow: [],
          depConstraints: nxDepConstraints,
        },
      ],
      // Gaps of the Nx rule: apps imported by package name, deep imports past a public entry point.
      '@typescript-eslint/no-restricted-imports': ['error', allRestrictedImports],
    },
  },
  {
    // Production code (everything in the apps' and libs' src folders but specs, testing/ folders and
    // the e2e apps) never imports test code, nor loads it with import() or require().
    // libs/domain replaces the no-restricted-syntax entries below with its own, which forbid any
    // package and any import() or require(); apps/web repeats the import patterns with its own.
    files: PRODUCTION_CODE,
    ignores: TEST_CODE,
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', productionRestrictedImports],
      'no-restricted-syntax': ['error', ...productionLoadRestrictions],
    },
  },
  {
    // Domain production code: pure TypeScript, relative imports only, no hidden clock or randomness.
    files: ['libs/domain/src/**/*.ts'],
    ignores: DOMAIN_TESTS,
    rules: {
      'no-restricted-syntax': ['error', ...domainSourceRestrictions],
      'no-restricted-globals': ['error', ...domainRestrictedGlobals],
    },
  },
  {
    // Domain tests and test support (in-memory adapters, arbitraries, contract suites):
    // relative imports plus fast-check and @jest/globals; still no Node modules.
    files: DOMAIN_TESTS,
    rules: {
      'no-restricted-syntax': ['error', ...domainTestRestrictions],
    },
  },
  {
    // Code that ships to the browser. (vite.config.ts and other build files run in Node: not here.)
    files: WEB,
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', webRestrictedImports],
    },
  },
  {
    // …and its production files, which also never import test code (see the production block above).
    files: WEB,
    ignores: TEST_CODE,
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', webProductionRestrictedImports],
    },
  },
  prettier,
);
