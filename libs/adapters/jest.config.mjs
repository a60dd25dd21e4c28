import { preset } from '../../tools/jest/preset.mjs';
// Integration specs here talk to real PostgreSQL, bubblewrap sandboxes and Vite: correct but
// slow while the whole suite shares two cores, where Jest's 5 s default fails them for it.
export default preset(import.meta.dirname, 'adapters', { testTimeout: 30_000 });
