// Issue 12's escape suite, source (b): code the dev server runs (the project's vite.config.ts).
import { DEV_SERVER_ESCAPES } from './testing/escape-sources.js';
import { describeEscapes } from './testing/escape-suite.js';

describeEscapes(DEV_SERVER_ESCAPES);
