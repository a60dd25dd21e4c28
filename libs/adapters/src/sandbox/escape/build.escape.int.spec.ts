// Issue 12's escape suite, source (c): the type-check and build find-errors runs (the build loads
// the project's vite.config.ts through Kiln's launcher: as a command of its own, or warm inside
// the project's running dev server).
import { BUILD_ESCAPES } from './testing/escape-sources.js';
import { describeEscapes } from './testing/escape-suite.js';

describeEscapes(BUILD_ESCAPES);
