// The escape suite's source "run-command" (a shell line given to run-command), against the container host: each project in
// a container of its own on Docker, under gVisor (SANDBOX_ENGINE=docker).
import { describe, it } from '@jest/globals';
import { dockerEngineMissing } from '../testing/test-docker-engine.js';
import { RUN_COMMAND_ESCAPES } from './testing/escape-sources.js';
import { describeEscapes } from './testing/escape-suite.js';

const missing = dockerEngineMissing();
if (missing === null) describeEscapes({ ...RUN_COMMAND_ESCAPES, engine: 'docker' });
else describe.skip(`Escape attempts from run-command (container host): ${missing}`, () => it('needs a Docker engine', () => undefined));
