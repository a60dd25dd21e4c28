import { preset } from './jest/preset.mjs';

// Specs for the developer tools themselves (e.g. the lint rules that guard the architecture).
// The preset looks in <rootDir>/src; tools has no src folder, so list the folders here.
export default preset(import.meta.dirname, 'tools', {
  testMatch: ['<rootDir>/**/*.spec.ts'],
  testPathIgnorePatterns: ['/node_modules/'],
});
