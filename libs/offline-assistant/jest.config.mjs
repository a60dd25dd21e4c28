import { preset } from '../../tools/jest/preset.mjs';
// Unit specs only, fast (the generator is pure): no slow-suite timeout. The spec that builds the
// generated apps in real sandboxes lives in libs/adapters (offline-assistant.build.int.spec.ts).
export default preset(import.meta.dirname, 'offline-assistant');
