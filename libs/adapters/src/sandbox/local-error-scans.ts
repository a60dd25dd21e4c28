import { readlink } from 'node:fs/promises';
import path from 'node:path';
import { type CodeError, type CommandResult, type ErrorScan, errorScanFrom, ErrorScanUnavailable, type RunCommandOptions, type SandboxCommand, type SandboxDiagnostics } from '@kiln/domain';
import { buildErrorsFrom, parseTscOutput, parseViteBuildErrors } from './error-output-parsers.js';
import { KeyedQueue } from './keyed-queue.js';
import type { DependencySync } from './project-dependencies.js';
import { type ReleaseBuildOutput, runReleaseBuild } from './release-build.js';
import { parseWarmCheckReply, warmCheckMayVouchFor, type WarmCheckMode } from './warm-checks.js';

/** find-errors results kept per host (by the files, dependencies and launcher they were made from). */
const SCAN_CACHE_ENTRIES = 500;
/** Each of find-errors' two steps (type-check, build) may take this long. */
export const FIND_ERRORS_TIMEOUT_SECONDS = 60;
/** A warm check (both steps) that says nothing for this long is given up: the cold way runs. */
export const WARM_CHECK_TIMEOUT_MS = 30_000;
/** Sandboxes whose last passing build is remembered (the baseline a type-check vouches from). */
const BUILT_BASELINES = 5000;
/** The project's own TypeScript compiler (from the shared dependencies), run with `node`. */
const TSC_ENTRY = 'node_modules/typescript/bin/tsc';
/** What people are told when the compiler did not run (its output, with server paths, goes to the log only). */
export const TYPE_CHECK_DID_NOT_RUN = "The type-checker could not run (the project's packages may be missing or broken).";
export const BUILD_DID_NOT_RUN = 'The build could not run.';

export interface LocalErrorScansOptions {
  /** The project's folder; rejects unless the sandbox exists. */
  readonly existingProjectDir: (sandboxId: string) => Promise<string>;
  /** Makes node_modules what package.json asks for (restarting a running dev server on a change). */
  readonly syncDependencies: (sandboxId: string, projectDir: string) => Promise<DependencySync>;
  /** The host's sandboxed commands (the type-check and the build run as ones). */
  readonly runCommand: (sandboxId: string, command: SandboxCommand, options?: RunCommandOptions) => Promise<CommandResult>;
  /** Kiln's Vite launcher as seen inside the sandbox. */
  readonly launcher: () => Promise<string>;
  /** The git tree of the project's working copy (LocalSandboxVersions.workingTree). */
  readonly workingTree: (sandboxId: string) => Promise<string>;
  /** The launcher on Kiln's side: part of what a scan depends on. */
  readonly launcherFile: string;
  /**
   * The sandbox's running dev server's warm check (DevServers.askCheck): the answer's JSON, or null
   * (no server running, no answer). Without it every scan runs the cold way.
   */
  readonly warmCheck?: (sandboxId: string, mode: WarmCheckMode, timeoutMs: number, changedPaths: readonly string[]) => Promise<string | null>;
  /** The paths that differ between two working trees (LocalSandboxVersions.changedPaths). */
  readonly changedPaths?: (sandboxId: string, fromTree: string, toTree: string) => Promise<readonly string[]>;
}

/** What a scan's result depends on (see scanKey). */
interface ScanKey {
  readonly tree: string;
  /** Everything else: where node_modules points, Kiln's launcher. */
  readonly setting: string;
  readonly key: string;
}

/** A scan, and whether its build ran and passed (the files then are a baseline to vouch from). */
interface ScanOutcome {
  readonly scan: ErrorScan;
  readonly built: boolean;
}

/** find-errors for local sandboxes: tsc, then a Vite build, each result kept by what it was made from. */
export class LocalErrorScans implements SandboxDiagnostics {
  /** One scan at a time per sandbox: scans share the build folder. */
  private readonly scans = new KeyedQueue();
  /** One release build at a time per sandbox. */
  private readonly releases = new KeyedQueue();
  /** Scan results by scanKey, most recent last. */
  private readonly scanResults = new Map<string, ScanOutcome>();
  /** Per sandbox, the files of its last scan whose build passed. */
  private readonly lastBuilt = new Map<string, ScanKey>();

  constructor(private readonly options: LocalErrorScansOptions) {}

  /**
   * The TypeScript compiler over the project (`tsc --noEmit`), and when it finds no errors (warnings
   * aside) a Vite build into `.kiln-build/dist`, which catches what tsc does not see (imports Vite
   * cannot resolve, syntax in plain JS). A running dev server answers warm (runtime/warm-checks.mjs:
   * its process keeps the type-checker's program and Vite loaded), and skips the build when the
   * change can be vouched for without it: only TypeScript modules (every import one tsc resolved or
   * a file or package that exists), stylesheets and index.html (transformed afresh by the dev
   * server) changed since a build that passed. Otherwise both run as sandboxed commands. A scan that could not run
   * (timeout, compiler missing, launcher crash) rejects with ErrorScanUnavailable — never an empty
   * scan: the API answers zero counts marked unavailable (SPEC §8).
   */
  async findErrors(sandboxId: string): Promise<ErrorScan> {
    const projectDir = await this.options.existingProjectDir(sandboxId);
    return this.scans.run(sandboxId, async () => {
      // First make node_modules what package.json asks for (installing a new set once).
      const dependencies = await this.options.syncDependencies(sandboxId, projectDir);
      if (dependencies.kind !== 'failed') return this.scanOrReuse(sandboxId, projectDir);
      // An error of the project, not of the scan: the assistant's repair and revert must see it.
      // The files are still scanned with the previous dependencies (an import of the missing
      // package shows up there too).
      const problem: CodeError = { message: dependencies.message, file: 'package.json', line: 1, column: 1, severity: 'error' };
      const scan = await this.scanOrReuse(sandboxId, projectDir).catch(() => null);
      return errorScanFrom([problem, ...(scan?.errors ?? [])]);
    });
  }

  /**
   * The production build a release is copied from (release-build.ts), one at a time per sandbox
   * (it has one output folder), beside find-errors (which builds into another).
   */
  buildForRelease(sandboxId: string): Promise<ReleaseBuildOutput> {
    return this.releases.run(sandboxId, () => runReleaseBuild(this.options, sandboxId));
  }

  private async scanOrReuse(sandboxId: string, projectDir: string): Promise<ErrorScan> {
    // The same files with the same dependencies give the same scan: an AI turn's baseline is
    // usually the previous turn's result, and every new project starts from the same starter.
    const key = await this.scanKey(sandboxId, projectDir);
    const known = key === null ? undefined : this.scanResults.get(key.key);
    if (known !== undefined) {
      if (known.built && key !== null) this.rememberBuilt(sandboxId, key);
      return known.scan;
    }
    const outcome = (await this.warmScan(sandboxId, projectDir, key)) ?? (await this.coldScan(sandboxId, projectDir));
    // Kept only when nothing changed while it ran.
    if (key !== null && (await this.scanKey(sandboxId, projectDir))?.key === key.key) {
      this.rememberScan(key.key, outcome);
      if (outcome.built) this.rememberBuilt(sandboxId, key);
    }
    return outcome.scan;
  }

  /** The scan by the sandbox's running dev server; null when it cannot answer (the cold way runs). */
  private async warmScan(sandboxId: string, projectDir: string, key: ScanKey | null): Promise<ScanOutcome | null> {
    if (this.options.warmCheck === undefined) return null;
    const changed = await this.changedSinceBuilt(sandboxId, key);
    const mode: WarmCheckMode = changed !== null && warmCheckMayVouchFor(changed) ? 'vouch' : 'build';
    const answer = await this.options.warmCheck(sandboxId, mode, WARM_CHECK_TIMEOUT_MS, changed ?? []);
    const reply = answer === null ? null : parseWarmCheckReply(answer);
    if (reply === null || reply.kind === 'fallback') return null;
    const typeErrors = parseTscOutput(reply.typeOutput, projectDir);
    // Errors counted but none readable: not an answer to trust.
    if (reply.typeErrorCount > 0 && typeErrors.length === 0) return null;
    const typeScan = errorScanFrom(typeErrors);
    if (typeScan.errorCount > 0) return { scan: typeScan, built: false };
    if (reply.buildErrors === null) return mode === 'vouch' ? { scan: typeScan, built: false } : null;
    if (reply.buildErrors.length === 0) return { scan: typeScan, built: true };
    return { scan: errorScanFrom([...typeErrors, ...buildErrorsFrom(reply.buildErrors, projectDir)]), built: false };
  }

  /** The files changed since the sandbox's last passing build; null when there is none to compare with. */
  private async changedSinceBuilt(sandboxId: string, key: ScanKey | null): Promise<readonly string[] | null> {
    const base = this.lastBuilt.get(sandboxId);
    if (key === null || base === undefined || base.setting !== key.setting || this.options.changedPaths === undefined) return null;
    try {
      return await this.options.changedPaths(sandboxId, base.tree, key.tree);
    } catch {
      return null;
    }
  }

  /** tsc and the Vite build as two new sandboxed processes. */
  private async coldScan(sandboxId: string, projectDir: string): Promise<ScanOutcome> {
    const timeoutSeconds = FIND_ERRORS_TIMEOUT_SECONDS;
    // The type-check and the build run side by side (two processes, about half the wait); the
    // build's errors count only when the type-check found none, as if it ran after it.
    const [tsc, build] = await Promise.all([
      this.options.runCommand(sandboxId, [process.execPath, TSC_ENTRY, '--noEmit', '--pretty', 'false', '-p', '.'], { timeoutSeconds }),
      this.options.launcher().then((launcher) => this.options.runCommand(sandboxId, [process.execPath, launcher, 'build', projectDir], { timeoutSeconds })),
    ]);
    if (tsc.timedOut) throw new ErrorScanUnavailable(`Type-checking did not finish within ${timeoutSeconds} s.`);
    const typeErrors = parseTscOutput(`${tsc.stdout}\n${tsc.stderr}`, projectDir);
    // Never "no errors" for a compiler that did not run (missing node_modules, a crash, killed).
    if (tsc.exitCode !== 0 && typeErrors.length === 0) throw new ErrorScanUnavailable(TYPE_CHECK_DID_NOT_RUN, lastLines(tsc.stderr || tsc.stdout));
    const typeScan = errorScanFrom(typeErrors);
    if (typeScan.errorCount > 0) return { scan: typeScan, built: false };

    if (build.timedOut) throw new ErrorScanUnavailable(`The build did not finish within ${timeoutSeconds} s.`);
    if (build.exitCode === 0) return { scan: typeScan, built: true };
    const buildErrors = parseViteBuildErrors(build.stdout, projectDir);
    if (buildErrors === null) throw new ErrorScanUnavailable(BUILD_DID_NOT_RUN, lastLines(build.stderr || build.stdout));
    return { scan: errorScanFrom([...typeErrors, ...buildErrors]), built: false };
  }

  /**
   * What a scan's result depends on: the project's files (the git tree of the working copy, staged
   * into a private index so the real one is untouched), where node_modules points (one installed
   * tree per dependency set, never changed once in place, so the link names its content) and
   * Kiln's launcher. null when it cannot be told (no cache then). Files the project's own
   * .gitignore hides are not part of it.
   */
  private async scanKey(sandboxId: string, projectDir: string): Promise<ScanKey | null> {
    try {
      const tree = await this.options.workingTree(sandboxId);
      const deps = await readlink(path.join(projectDir, 'node_modules')).catch(() => 'none');
      const setting = `${deps}|${this.options.launcherFile}`;
      return { tree, setting, key: `${tree}|${setting}` };
    } catch {
      return null;
    }
  }

  private rememberScan(key: string, outcome: ScanOutcome): void {
    remember(this.scanResults, key, outcome, SCAN_CACHE_ENTRIES);
  }

  private rememberBuilt(sandboxId: string, key: ScanKey): void {
    remember(this.lastBuilt, sandboxId, key, BUILT_BASELINES);
  }
}

/** Sets `key` as the most recent entry, keeping the `max` most recent (a Map keeps insertion order). */
function remember<V>(map: Map<string, V>, key: string, value: V, max: number): void {
  map.delete(key);
  map.set(key, value);
  while (map.size > max) map.delete(map.keys().next().value as string);
}

function lastLines(text: string, count = 15): string {
  return text.trim().split('\n').slice(-count).join('\n').slice(-2000);
}
