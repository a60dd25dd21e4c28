// The escape suite's source "dev-server" (code the dev server runs (the project's vite.config.ts)), against the container host: each project in
// a container of its own on Docker, under gVisor (SANDBOX_ENGINE=docker).
import { describe, it } from '@jest/globals';
import { dockerEngineMissing } from '../testing/test-docker-engine.js';
import { DEV_SERVER_ESCAPES } from './testing/escape-sources.js';
import { describeEscapes } from './testing/escape-suite.js';

const missing = dockerEngineMissing();
if (missing === null) describeEscapes({ ...DEV_SERVER_ESCAPES, engine: 'docker' });
else describe.skip(`Escape attempts from dev-server (container host): ${missing}`, () => it('needs a Docker engine', () => undefined));
