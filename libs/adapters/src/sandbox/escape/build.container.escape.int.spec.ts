// The escape suite's source "build" (the type-check and build find-errors runs), against the container host: each project in
// a container of its own on Docker, under gVisor (SANDBOX_ENGINE=docker).
import { describe, it } from '@jest/globals';
import { dockerEngineMissing } from '../testing/test-docker-engine.js';
import { BUILD_ESCAPES } from './testing/escape-sources.js';
import { describeEscapes } from './testing/escape-suite.js';

const missing = dockerEngineMissing();
if (missing === null) describeEscapes({ ...BUILD_ESCAPES, engine: 'docker' });
else describe.skip(`Escape attempts from build (container host): ${missing}`, () => it('needs a Docker engine', () => undefined));
