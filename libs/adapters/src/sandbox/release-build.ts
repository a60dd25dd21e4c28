import path from 'node:path';
import type { CommandResult, RunCommandOptions, SandboxCommand } from '@kiln/domain';
import type { DependencySync } from './project-dependencies.js';

/** A release build may take this long (a production build of a large app); then it is failed. */
export const RELEASE_BUILD_TIMEOUT_SECONDS = 120;
/** Where the release build writes, relative to the project (the launcher's `release` mode). */
export const RELEASE_OUTPUT_DIR = '.kiln-build/release';
/** The end of a build's log that is kept (the errors are at the end). */
export const RELEASE_LOG_MAX_CHARS = 20_000;

/** What a release build left: its exit code and log, and where its output is (to be copied hostilely). */
export interface ReleaseBuildOutput {
  /** 0 when the build passed. */
  readonly exitCode: number;
  readonly timedOut: boolean;
  /** Vite's log, trimmed to its end, without server folders. */
  readonly log: string;
  /** The project's folder (Kiln's path): the copy walks from it, one name at a time. */
  readonly projectDir: string;
  /** The output folder relative to projectDir, written by the project's own code: never trusted. */
  readonly outputDir: string;
}

export interface ReleaseBuildDeps {
  readonly existingProjectDir: (sandboxId: string) => Promise<string>;
  readonly syncDependencies: (sandboxId: string, projectDir: string) => Promise<DependencySync>;
  readonly runCommand: (sandboxId: string, command: SandboxCommand, options?: RunCommandOptions) => Promise<CommandResult>;
  /** Kiln's Vite launcher as seen inside the sandbox. */
  readonly launcher: () => Promise<string>;
}

/**
 * `vite build` of the project into RELEASE_OUTPUT_DIR, as a sandboxed command (bubblewrap, the
 * sandbox's cgroup and rlimits, no network, a timeout; every process of it is gone when it
 * returns). node_modules is first made what package.json asks for, as find-errors does.
 */
export async function runReleaseBuild(deps: ReleaseBuildDeps, sandboxId: string): Promise<ReleaseBuildOutput> {
  const projectDir = await deps.existingProjectDir(sandboxId);
  const dependencies = await deps.syncDependencies(sandboxId, projectDir);
  const launcher = await deps.launcher();
  const hide = [projectDir, path.dirname(launcher)];
  if (dependencies.kind === 'failed') {
    return { exitCode: 1, timedOut: false, log: releaseLog(`package.json: ${dependencies.message}`, hide), projectDir, outputDir: RELEASE_OUTPUT_DIR };
  }
  const result = await deps.runCommand(sandboxId, [process.execPath, launcher, 'release', projectDir], { timeoutSeconds: RELEASE_BUILD_TIMEOUT_SECONDS });
  const log = [result.stdout, result.stderr].filter((s) => s.trim() !== '').join('\n');
  return { exitCode: result.exitCode, timedOut: result.timedOut, log: releaseLog(log, hide), projectDir, outputDir: RELEASE_OUTPUT_DIR };
}

/**
 * A log a person may read: server folders replaced (`<projectDir>/src/App.tsx` → `src/App.tsx`,
 * any other of `hide` → `…`), control characters but newlines and tabs removed, its end kept.
 */
export function releaseLog(text: string, hide: readonly string[]): string {
  let out = text;
  for (const [i, dir] of hide.entries()) {
    if (dir === '' || dir === '/') continue;
    out = out.split(`${dir}/`).join(i === 0 ? '' : '…/').split(dir).join(i === 0 ? '.' : '…');
  }
  out = out.replace(/\u001b\[[0-9;]*[A-Za-z]/g, '').replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '');
  return out.length > RELEASE_LOG_MAX_CHARS ? `[…]\n${out.slice(-RELEASE_LOG_MAX_CHARS)}` : out;
}
