import { describe, expect, it } from '@jest/globals';
import { ConfigError, loadConfig } from '../config.js';

function problems(env: Record<string, string>): readonly string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

describe('loadConfig — SANDBOX_ENGINE and the Docker engine', () => {
  it('defaults to the local host (bubblewrap), needing nothing else', () => {
    expect(loadConfig({}).sandboxEngine).toEqual({ kind: 'local' });
  });

  it('reads the Docker engine with its defaults, and every setting given', () => {
    expect(loadConfig({ SANDBOX_ENGINE: 'docker' }).sandboxEngine).toEqual({ kind: 'docker', dockerHost: 'unix:///var/run/docker.sock', image: null, runtime: 'runsc', pauseIdleSeconds: 60 });
    expect(
      loadConfig({ SANDBOX_ENGINE: 'docker', DOCKER_HOST: 'tcp://engine-1:2375', SANDBOX_IMAGE: 'registry.example.com/kiln-sandbox:abc123', SANDBOX_RUNTIME: 'runc', SANDBOX_PAUSE_IDLE_SECONDS: '30' }).sandboxEngine,
    ).toEqual({ kind: 'docker', dockerHost: 'tcp://engine-1:2375', image: 'registry.example.com/kiln-sandbox:abc123', runtime: 'runc', pauseIdleSeconds: 30 });
  });

  it('refuses an unknown engine, a DOCKER_HOST it cannot reach that way, a bad image, runtime or pause', () => {
    expect(problems({ SANDBOX_ENGINE: 'podman' })).toEqual(['SANDBOX_ENGINE must be local or docker, got "podman"']);
    expect(problems({ SANDBOX_ENGINE: 'docker', DOCKER_HOST: 'ssh://engine' })).toEqual(['DOCKER_HOST must be unix:///path/to/docker.sock or tcp://host:port, got "ssh://engine"']);
    expect(problems({ SANDBOX_ENGINE: 'docker', SANDBOX_IMAGE: 'Kiln Sandbox' })).toEqual(['SANDBOX_IMAGE must be an image reference (registry/name:tag), got "Kiln Sandbox"']);
    expect(problems({ SANDBOX_ENGINE: 'docker', SANDBOX_RUNTIME: 'run sc' })).toEqual(['SANDBOX_RUNTIME must be a runtime\'s name such as runsc, got "run sc"']);
    expect(problems({ SANDBOX_ENGINE: 'docker', SANDBOX_PAUSE_IDLE_SECONDS: '0' })).toEqual(['SANDBOX_PAUSE_IDLE_SECONDS must be a whole number of seconds from 1 to 86400, got "0"']);
    expect(problems({ SANDBOX_ENGINE: 'docker', SANDBOX_PAUSE_IDLE_SECONDS: '1.5' })).toHaveLength(1);
  });
});
