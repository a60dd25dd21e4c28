import { kilnE2eConfig } from './playwright.config';

// The builder and AI-turn journeys again with SANDBOX_ENGINE=docker: every project's processes in
// a container of its own under gVisor, on the engine at KILN_TEST_DOCKER_HOST (tools/test.mjs
// starts Kiln's private test engine, tools/sandbox-image/engine.sh, and sets it).
const dockerHost = process.env['KILN_TEST_DOCKER_HOST'];
if (dockerHost === undefined || dockerHost === '') throw new Error('playwright.docker.config.ts needs KILN_TEST_DOCKER_HOST (a Docker engine with runsc)');

export default kilnE2eConfig({
  port: Number(process.env['E2E_DOCKER_PORT'] ?? 3311),
  extraEnv: { SANDBOX_ENGINE: 'docker', DOCKER_HOST: dockerHost },
  testMatch: ['builder.spec.ts', 'assistant.spec.ts'],
});
