import { preset } from '../../tools/jest/preset.mjs';
export default preset(import.meta.dirname, 'api');
