import { execFile } from 'node:child_process';
import path from 'node:path';

export type TestDockerEngine = { readonly dockerHost: string; readonly runtime: string } | { readonly unavailable: string };

let engine: Promise<TestDockerEngine> | undefined;

/**
 * The Docker engine the container host's tests run against: KILN_TEST_DOCKER_HOST when set,
 * otherwise Kiln's private test engine (tools/sandbox-image/engine.sh starts it when none answers),
 * with gVisor. Unavailable, with the reason, only where dockerd or runsc is not installed or the
 * daemon cannot start; the suites then skip and print it.
 */
export function testDockerEngine(): Promise<TestDockerEngine> {
  engine ??= (async () => {
    const configured = process.env['KILN_TEST_DOCKER_HOST'];
    if (configured !== undefined && configured !== '') return { dockerHost: configured, runtime: process.env['KILN_TEST_DOCKER_RUNTIME'] ?? 'runsc' };
    const script = path.resolve(process.cwd(), 'tools/sandbox-image/engine.sh');
    return new Promise<TestDockerEngine>((resolve) => {
      execFile('bash', [script], { timeout: 60_000 }, (error, stdout, stderr) => {
        if (error) resolve({ unavailable: `no Docker engine for the container sandbox tests: ${stderr.trim() || error.message}` });
        else resolve({ dockerHost: stdout.trim(), runtime: 'runsc' });
      });
    });
  })();
  return engine;
}
