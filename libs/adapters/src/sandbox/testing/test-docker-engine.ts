import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
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

/**
 * Why the container suites cannot run here (decided when they are defined, so they skip with the
 * reason printed): no engine configured and dockerd or runsc not installed. null: they run, and
 * fail if the engine then does not start.
 */
export function dockerEngineMissing(): string | null {
  if ((process.env['KILN_TEST_DOCKER_HOST'] ?? '') !== '') return null;
  const missing = ['/usr/sbin/dockerd', '/usr/bin/runsc'].filter((file) => !existsSync(file));
  return missing.length === 0 ? null : `no Docker engine for the container sandbox tests: ${missing.join(' and ')} not installed (apt-get install docker.io runsc)`;
}

/** The engine, or a thrown reason (a suite that should run). */
export async function requireTestDockerEngine(): Promise<{ readonly dockerHost: string; readonly runtime: string }> {
  const engine = await testDockerEngine();
  if ('unavailable' in engine) throw new Error(engine.unavailable);
  return engine;
}
