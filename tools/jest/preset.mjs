// Shared Jest settings. Jest runs in ESM mode (node --experimental-vm-modules) because
// NestJS 12 is ESM-only and Jest's CommonJS mode cannot load it on Node 20 (see NOTES.md).
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const swc = {
  jsc: {
    parser: { syntax: 'typescript', tsx: true, decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true, react: { runtime: 'automatic' } },
    target: 'es2023',
  },
  module: { type: 'es6' },
  sourceMaps: 'inline',
};

/** @returns {import('jest').Config} */
export function preset(projectDir, displayName, overrides = {}) {
  return {
    displayName,
    rootDir: projectDir,
    testEnvironment: 'node',
    extensionsToTreatAsEsm: ['.ts', '.tsx'],
    transform: { '^.+\\.(t|j)sx?$': ['@swc/jest', swc] },
    moduleNameMapper: {
      '^@kiln/domain$': path.join(root, 'libs/domain/src/index.ts'),
      '^@kiln/domain/testing$': path.join(root, 'libs/domain/src/testing/index.ts'),
      '^@kiln/domain/contracts$': path.join(root, 'libs/domain/src/testing/contracts/index.ts'),
      '^@kiln/offline-assistant$': path.join(root, 'libs/offline-assistant/src/index.ts'),
      '^@kiln/offline-assistant/testing$': path.join(root, 'libs/offline-assistant/src/testing/index.ts'),
      '^@kiln/adapters$': path.join(root, 'libs/adapters/src/index.ts'),
      '^@kiln/adapters/testing$': path.join(root, 'libs/adapters/src/testing/index.ts'),
      // Sources use NodeNext-style relative imports ending in .js; Jest resolves the .ts file.
      '^(\\.{1,2}/.*)\\.js$': '$1',
    },
    testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/src/**/*.spec.tsx'],
    ...overrides,
  };
}
