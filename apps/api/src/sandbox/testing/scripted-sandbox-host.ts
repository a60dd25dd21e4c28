import type {
  SandboxMachineState,
  CommandResult,
  DependencyInstallResult,
  DevServerState,
  ErrorScan,
  ExportFilesOptions,
  FileListEntry,
  FileTreeEntry,
  InstallDependenciesOptions,
  ProjectFileBytes,
  ReadDirectoryOptions,
  RestoreVersionResult,
  RunCommandOptions,
  SandboxCommand,
  SandboxHost,
  SandboxHostEvent,
  SandboxInfo,
  SandboxVersion,
  SaveVersionResult,
} from '@kiln/domain';
import { INTERRUPTED_EXIT_CODE } from '@kiln/domain';
import { InMemorySandboxHost } from '@kiln/domain/testing';

/**
 * The in-memory host wrapped with scriptable behaviour for API tests: dev-server states per
 * project, failing git (SPEC §8 fallbacks), a scripted or failing error scan, streamed command
 * output, and host events on demand.
 */
export class ScriptedSandboxHost implements SandboxHost {
  readonly inner = new InMemorySandboxHost();
  readonly devStates = new Map<string, DevServerState>();
  readonly devServerCalls: string[] = [];
  failGit = false;
  /** What findErrors answers; null: it rejects (no compiler). */
  scan: ErrorScan | null = null;
  commandOutput: Array<['stdout' | 'stderr', string]> = [];
  /** When set, a command runs until its signal aborts (then answers as interrupted). */
  hangUntilAborted = false;
  /** When set, read-file and write-file reject with it (a real host's refusals and system errors). */
  fileFailure: unknown = null;
  private readonly listeners = new Set<(event: SandboxHostEvent) => void>();

  ensure(projectId: string): Promise<SandboxInfo> {
    return this.inner.ensure(projectId);
  }
  readFile(id: string, path: string): Promise<string> {
    if (this.fileFailure !== null) return Promise.reject(this.fileFailure);
    return this.inner.readFile(id, path);
  }
  writeFile(id: string, path: string, content: string): Promise<void> {
    if (this.fileFailure !== null) return Promise.reject(this.fileFailure);
    return this.inner.writeFile(id, path, content);
  }
  deleteFile(id: string, path: string): Promise<void> {
    return this.inner.deleteFile(id, path);
  }
  readDirectory(id: string, path: string, options?: ReadDirectoryOptions): Promise<readonly FileListEntry[]> {
    return this.inner.readDirectory(id, path, options);
  }
  getTree(id: string, path: string, ignore?: readonly string[]): Promise<readonly FileTreeEntry[]> {
    return this.inner.getTree(id, path, ignore);
  }
  createDirectory(id: string, path: string): Promise<void> {
    return this.inner.createDirectory(id, path);
  }
  writeFileBytes(id: string, path: string, bytes: Uint8Array): Promise<void> {
    return this.inner.writeFileBytes(id, path, bytes);
  }

  createFile(id: string, path: string): Promise<void> {
    return this.inner.createFile(id, path);
  }
  movePath(id: string, from: string, to: string): Promise<void> {
    return this.inner.movePath(id, from, to);
  }
  exportFiles(id: string, options: ExportFilesOptions): AsyncIterable<ProjectFileBytes> {
    return this.inner.exportFiles(id, options);
  }
  machineState(id: string): Promise<SandboxMachineState> {
    return this.inner.machineState(id);
  }

  cleanup(id: string): Promise<void> {
    return this.inner.cleanup(id);
  }
  restartDev(id: string): Promise<void> {
    return this.inner.restartDev(id);
  }
  stopAll(): Promise<void> {
    return this.inner.stopAll();
  }

  async devServer(id: string): Promise<DevServerState> {
    this.devServerCalls.push(id);
    const base = await this.inner.devServer(id); // rejects without a sandbox
    return this.devStates.get(id) ?? base;
  }

  async versionHistory(id: string): Promise<readonly SandboxVersion[]> {
    if (this.failGit) throw new Error('git log: fatal: your current branch appears to be broken');
    return this.inner.versionHistory(id);
  }

  async saveVersion(id: string, message: string): Promise<SaveVersionResult> {
    if (this.failGit) throw new Error('git commit: index.lock exists');
    return this.inner.saveVersion(id, message);
  }

  async restoreVersion(id: string, hash: string): Promise<RestoreVersionResult> {
    if (this.failGit) throw new Error('git read-tree: broken');
    return this.inner.restoreVersion(id, hash);
  }

  installDependencies(id: string, options?: InstallDependenciesOptions): Promise<DependencyInstallResult> {
    return this.inner.installDependencies(id, options);
  }

  async restoreFile(id: string, hash: string, path: string): Promise<RestoreVersionResult> {
    if (this.failGit) throw new Error('git checkout: broken');
    return this.inner.restoreFile(id, hash, path);
  }

  async findErrors(id: string): Promise<ErrorScan> {
    await this.inner.readDirectory(id, '.'); // rejects without a sandbox
    if (this.scan === null) throw new Error('no compiler');
    return this.scan;
  }

  async runCommand(id: string, command: SandboxCommand, options: RunCommandOptions = {}): Promise<CommandResult> {
    const result = await this.inner.runCommand(id, command, options); // checks the sandbox and working dir
    if (this.hangUntilAborted) {
      options.onOutput?.('stdout', 'working…\n');
      await new Promise<void>((resolve) => {
        if (options.signal?.aborted) resolve();
        options.signal?.addEventListener('abort', () => resolve());
      });
      return { exitCode: INTERRUPTED_EXIT_CODE, stdout: 'working…\n', stderr: '[interrupted]\n', timedOut: false, outputTruncated: false, interrupted: true };
    }
    if (this.commandOutput.length === 0) return result;
    for (const [stream, text] of this.commandOutput) options.onOutput?.(stream, text);
    const of = (s: 'stdout' | 'stderr') => this.commandOutput.filter(([x]) => x === s).map(([, text]) => text).join('');
    return { exitCode: 0, stdout: of('stdout'), stderr: of('stderr'), timedOut: false, outputTruncated: false };
  }

  /** Only the scripted events (emitDevServer): the tests count them. */
  subscribe(listener: (event: SandboxHostEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** A dev-server change, as the real host reports it to subscribers. */
  emitDevServer(id: string, state: DevServerState): void {
    this.devStates.set(id, state);
    for (const listener of this.listeners) listener({ type: 'dev-server', sandboxId: id, state });
  }
}
