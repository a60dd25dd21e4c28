import { preset } from '../../tools/jest/preset.mjs';
// API specs start a whole app (a fresh schema, its migrations, Nest's module graph) in their hooks.
export default preset(import.meta.dirname, 'api', { setupFilesAfterEnv: ['<rootDir>/../../tools/jest/slow-suite-timeout.mjs'] });
