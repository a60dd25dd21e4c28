// Issue 12's escape suite, source (a): a shell line given to run-command.
import { RUN_COMMAND_ESCAPES } from './testing/escape-sources.js';
import { describeEscapes } from './testing/escape-suite.js';

describeEscapes(RUN_COMMAND_ESCAPES);
