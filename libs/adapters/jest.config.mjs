import { preset } from '../../tools/jest/preset.mjs';
// Integration specs here talk to real PostgreSQL, bubblewrap sandboxes and Vite.
export default preset(import.meta.dirname, 'adapters', { setupFilesAfterEnv: ['<rootDir>/../../tools/jest/slow-suite-timeout.mjs'] });
