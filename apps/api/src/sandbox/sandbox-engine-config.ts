/** Where project sandboxes run (docs/sandbox-containers.md). */
export type SandboxEngineConfig =
  | { readonly kind: 'local' }
  | {
      readonly kind: 'docker';
      /** DOCKER_HOST: unix:///path/docker.sock or tcp://host:port. */
      readonly dockerHost: string;
      /** SANDBOX_IMAGE: an image built from tools/sandbox-image and pushed to a registry; null: built here. */
      readonly image: string | null;
      /** SANDBOX_RUNTIME: the engine's runtime for sandboxes (default runsc, gVisor). */
      readonly runtime: string;
      /** SANDBOX_PAUSE_IDLE_SECONDS: an idle container is paused after this long (default 60). */
      readonly pauseIdleSeconds: number;
    };

export const DEFAULT_SANDBOX_PAUSE_IDLE_SECONDS = 60;
const MAX_SANDBOX_PAUSE_IDLE_SECONDS = 24 * 3600;

/**
 * SANDBOX_ENGINE: 'local' (default: bubblewrap on this machine, nothing to install for npm start)
 * or 'docker' (ContainerSandboxHost on the engine at DOCKER_HOST, under gVisor).
 */
export function parseSandboxEngine(env: Readonly<Record<string, string | undefined>>, report: (problem: string) => void): SandboxEngineConfig {
  const engine = (env['SANDBOX_ENGINE'] ?? '').trim() || 'local';
  if (engine === 'local') return { kind: 'local' };
  if (engine !== 'docker') {
    report(`SANDBOX_ENGINE must be local or docker, got "${engine}"`);
    return { kind: 'local' };
  }
  const dockerHost = (env['DOCKER_HOST'] ?? '').trim() || 'unix:///var/run/docker.sock';
  if (!/^unix:\/\/\/\S+$|^tcp:\/\/[^\s/:]+:\d{1,5}$/.test(dockerHost)) report(`DOCKER_HOST must be unix:///path/to/docker.sock or tcp://host:port, got "${dockerHost}"`);
  const image = (env['SANDBOX_IMAGE'] ?? '').trim();
  if (image !== '' && !/^[a-z0-9][a-z0-9._\-/:@]*$/.test(image)) report(`SANDBOX_IMAGE must be an image reference (registry/name:tag), got "${image}"`);
  const runtime = (env['SANDBOX_RUNTIME'] ?? '').trim() || 'runsc';
  if (!/^[a-z][a-z0-9._-]*$/.test(runtime)) report(`SANDBOX_RUNTIME must be a runtime's name such as runsc, got "${runtime}"`);
  const rawPause = (env['SANDBOX_PAUSE_IDLE_SECONDS'] ?? '').trim();
  const pauseIdleSeconds = rawPause === '' ? DEFAULT_SANDBOX_PAUSE_IDLE_SECONDS : Number(rawPause);
  if (!Number.isSafeInteger(pauseIdleSeconds) || pauseIdleSeconds < 1 || pauseIdleSeconds > MAX_SANDBOX_PAUSE_IDLE_SECONDS) {
    report(`SANDBOX_PAUSE_IDLE_SECONDS must be a whole number of seconds from 1 to ${MAX_SANDBOX_PAUSE_IDLE_SECONDS}, got "${rawPause}"`);
  }
  return { kind: 'docker', dockerHost, image: image === '' ? null : image, runtime, pauseIdleSeconds };
}
