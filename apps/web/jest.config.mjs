import { preset } from '../../tools/jest/preset.mjs';
// inversify's decorators need the Reflect metadata API, as in main.tsx.
export default preset(import.meta.dirname, 'web', { setupFiles: ['reflect-metadata'] });
