import { preset } from '../../tools/jest/preset.mjs';
// API specs start a whole app (a fresh schema, its migrations, Nest's module graph) in their
// hooks: a few seconds alone, far more while the whole suite shares two cores. Jest's 5 s
// default then fails a correct spec for being slow; a stuck test still fails, after 60 s.
export default preset(import.meta.dirname, 'api', { testTimeout: 60_000 });
