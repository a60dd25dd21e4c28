import type { CodeError } from '../sandbox/code-error.js';
import { type ErrorScan, errorScanFrom } from '../sandbox/error-scan.js';
import type { Clock } from '../shared/clock.port.js';
import {
  MAX_LISTING_CONTENT_BYTES,
  MAX_LISTING_ENTRIES,
  MAX_LISTING_ENTRIES_WITH_CONTENTS,
  MAX_READ_FILE_BYTES,
  MAX_TREE_BYTES,
  MAX_TREE_ENTRIES,
  SandboxLimitReached,
  sandboxTooLarge,
} from '../sandbox/sandbox-limits.js';
import { isValidSandboxId, resolveSandboxPath, SandboxPathRefused, utf8Length } from '../sandbox/sandbox-path.js';
import { type CommandResult, DEFAULT_WORKING_DIR, type RunCommandOptions } from '../sandbox/sandbox-commands.port.js';
import type { DevServerState, SandboxHostEvent } from '../sandbox/sandbox-dev-server.port.js';
import { type FileListEntry, type FileTreeEntry, type ReadDirectoryOptions, TREE_IGNORE_LIST } from '../sandbox/sandbox-files.port.js';
import type { SandboxHost } from '../sandbox/sandbox-host.port.js';
import type { ExportFilesOptions, ProjectFileBytes } from '../sandbox/sandbox-file-actions.port.js';
import type { DependencyInstallResult, InstallDependenciesOptions } from '../sandbox/sandbox-dependencies.port.js';
import { canonicalDependencySet, dependencySetFromPackageJson } from '../sandbox/dependency-set.js';
import type { SandboxMachineState, SandboxInfo } from '../sandbox/sandbox-lifecycle.port.js';
import type { RestoreVersionResult, SandboxVersion, SaveVersionResult } from '../sandbox/sandbox-versions.port.js';
import { matchesTreeIgnore } from '../sandbox/tree-ignore.js';
import { isExcludedFromVersions } from '../sandbox/version-excludes.js';
import { SandboxMissing } from '../sandbox/sandbox-missing.js';
import { FixedClock } from './fixed-clock.js';

/** The starter files an in-memory sandbox begins with (a tiny stand-in for the real template). */
export const IN_MEMORY_STARTER_FILES: Readonly<Record<string, string>> = Object.freeze({
  'package.json': '{\n  "name": "kiln-starter",\n  "private": true\n}\n',
  'index.html': '<!doctype html>\n<div id="root"></div>\n<script type="module" src="/src/main.tsx"></script>\n',
  'tsconfig.json': '{ "compilerOptions": { "jsx": "react-jsx", "strict": true } }\n',
  'src/main.tsx': "import { App } from './App';\n",
  'src/App.tsx': 'export function App() {\n  return <h1>Welcome to your Kiln app</h1>;\n}\n',
});

interface StoredVersion extends SandboxVersion {
  readonly files: ReadonlyMap<string, string>;
}

interface Sandbox {
  files: Map<string, string>;
  dirs: Set<string>;
  versions: StoredVersion[]; // newest first
}

class FileMissing extends Error {
  readonly code = 'ENOENT';
}

class NameTaken extends Error {
  readonly code = 'EEXIST';
}

const IN_MEMORY_RUNNING: DevServerState = Object.freeze({ status: 'running', socketPath: null, message: 'In-memory sandbox (no dev server)' });
const IN_MEMORY_STOPPED: DevServerState = Object.freeze({ status: 'stopped', socketPath: null, message: 'Dev server stopped' });

/**
 * SandboxHost in memory: files in a Map, folders in a Set, versions as snapshots. It cannot run
 * commands: runCommand answers exit code 126 with a clear message. Its "dev server" runs at once
 * on no port (events are emitted as a real host would: running, stopped on cleanup and stopAll,
 * stopped → starting → running on restart). findErrors rejects (no compiler) unless a test
 * scripted the errors with scriptErrors. For use-case and view tests.
 */
export class InMemorySandboxHost implements SandboxHost {
  private readonly sandboxes = new Map<string, Sandbox>();
  private readonly binaries = new Map<string, Uint8Array>();
  private readonly running = new Set<string>();
  private readonly scripted = new Map<string, readonly CodeError[]>();
  private readonly listeners = new Set<(event: SandboxHostEvent) => void>();
  /** The dependency set each sandbox's "node_modules" holds (canonical text); absent: the starter's. */
  private readonly installed = new Map<string, string>();
  /** Set by a test: every install fails with this message. */
  installFailure: string | null = null;
  /** How many installs ran (an up-to-date set runs none). */
  installCount = 0;
  private sequence = 0;

  constructor(private readonly clock: Clock = new FixedClock()) {}

  async ensure(projectId: string): Promise<SandboxInfo> {
    this.checkId(projectId);
    let machineCreated = false;
    if (!this.sandboxes.has(projectId)) {
      const sandbox: Sandbox = { files: new Map(Object.entries(IN_MEMORY_STARTER_FILES)), dirs: new Set(['src']), versions: [] };
      this.sandboxes.set(projectId, sandbox);
      this.snapshot(sandbox, 'Initial version');
      machineCreated = true;
    }
    return {
      status: 'created',
      message: 'In-memory sandbox',
      appName: projectId,
      projectId,
      url: '',
      ipv4Address: null,
      ipv6Address: null,
      machineCreated,
    };
  }

  async readFile(sandboxId: string, path: string): Promise<string> {
    const { sandbox, rel } = this.at(sandboxId, path);
    const text = sandbox.files.get(rel);
    if (text === undefined) throw new FileMissing(`No such file: ${rel}`);
    if (text.length * 3 > MAX_READ_FILE_BYTES && utf8Length(text) > MAX_READ_FILE_BYTES) throw new SandboxLimitReached(sandboxTooLarge('file-bytes', MAX_READ_FILE_BYTES));
    return text;
  }

  async writeFile(sandboxId: string, path: string, content: string): Promise<void> {
    const { sandbox, rel } = this.at(sandboxId, path);
    this.binaries.delete(`${sandboxId}\u0000${rel}`);
    if (rel === '.' || sandbox.dirs.has(rel)) throw new Error(`Is a folder: ${rel}`);
    this.addParents(sandbox, rel);
    sandbox.files.set(rel, content);
  }

  /** Bytes are kept aside (bytesOf); the file's text is a note of its size. */
  async writeFileBytes(sandboxId: string, path: string, bytes: Uint8Array): Promise<void> {
    await this.writeFile(sandboxId, path, `[${bytes.length} bytes]`);
    this.binaries.set(`${sandboxId}\u0000${this.at(sandboxId, path).rel}`, Uint8Array.from(bytes));
  }

  /** The bytes last written with writeFileBytes at `path`, or undefined. */
  bytesOf(sandboxId: string, path: string): Uint8Array | undefined {
    return this.binaries.get(`${sandboxId}\u0000${this.at(sandboxId, path).rel}`);
  }

  async deleteFile(sandboxId: string, path: string): Promise<void> {
    const { sandbox, rel } = this.at(sandboxId, path);
    if (rel === '.') throw new Error('Refusing to delete the project root');
    if (sandbox.files.delete(rel)) return;
    if (!sandbox.dirs.has(rel)) throw new FileMissing(`No such file: ${rel}`);
    for (const key of [...sandbox.files.keys()]) if (key.startsWith(`${rel}/`)) sandbox.files.delete(key);
    for (const dir of [...sandbox.dirs]) if (dir === rel || dir.startsWith(`${rel}/`)) sandbox.dirs.delete(dir);
  }

  async createDirectory(sandboxId: string, path: string): Promise<void> {
    const { sandbox, rel } = this.at(sandboxId, path);
    if (rel === '.') return;
    if (sandbox.files.has(rel)) throw new Error(`Is a file: ${rel}`);
    this.addParents(sandbox, rel);
    sandbox.dirs.add(rel);
  }

  async createFile(sandboxId: string, path: string): Promise<void> {
    const { sandbox, rel } = this.at(sandboxId, path);
    if (rel === '.' || sandbox.files.has(rel) || sandbox.dirs.has(rel)) throw new NameTaken(`Already taken: ${rel}`);
    this.addParents(sandbox, rel);
    sandbox.files.set(rel, '');
  }

  async movePath(sandboxId: string, from: string, to: string): Promise<void> {
    const source = this.at(sandboxId, from);
    const { sandbox, rel: target } = this.at(sandboxId, to);
    const rel = source.rel;
    if (rel === '.' || target === '.') throw new Error('Refusing to move the project root');
    if (sandbox.files.has(target) || sandbox.dirs.has(target)) throw new NameTaken(`Already taken: ${target}`);
    if (target.startsWith(`${rel}/`)) throw new Error(`Cannot move a folder into itself: ${rel}`);
    const text = sandbox.files.get(rel);
    if (text !== undefined) {
      this.addParents(sandbox, target);
      sandbox.files.delete(rel);
      sandbox.files.set(target, text);
      return;
    }
    if (!sandbox.dirs.has(rel)) throw new FileMissing(`No such file: ${rel}`);
    this.addParents(sandbox, target);
    const moved = (p: string) => `${target}${p.slice(rel.length)}`;
    for (const [p, content] of [...sandbox.files]) {
      if (!p.startsWith(`${rel}/`)) continue;
      sandbox.files.delete(p);
      sandbox.files.set(moved(p), content);
    }
    for (const dir of [...sandbox.dirs]) {
      if (dir !== rel && !dir.startsWith(`${rel}/`)) continue;
      sandbox.dirs.delete(dir);
      sandbox.dirs.add(moved(dir));
    }
  }

  async *exportFiles(sandboxId: string, options: ExportFilesOptions): AsyncIterable<ProjectFileBytes> {
    const sandbox = this.sandbox(sandboxId);
    const kept = [...sandbox.files]
      .filter(([p]) => !p.split('/').some((name) => matchesTreeIgnore(name, options.exclude)))
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([path, text]) => ({ path, bytes: this.binaries.get(`${sandboxId}\u0000${path}`) ?? utf8Bytes(text) }));
    const total = kept.reduce((sum, file) => sum + file.bytes.length, 0);
    if (total > options.maxBytes) throw new SandboxLimitReached(sandboxTooLarge('export-bytes', options.maxBytes));
    yield* kept;
  }

  async readDirectory(sandboxId: string, path: string, options: ReadDirectoryOptions = {}): Promise<readonly FileListEntry[]> {
    const { sandbox, rel } = this.at(sandboxId, path);
    const entries = this.children(sandbox, rel).filter((e) => !matchesTreeIgnore(e.name, options.ignorePatterns ?? []));
    // The same caps as a real host (sandbox-limits.ts).
    const withContents = options.includeContents === true;
    const maxEntries = withContents ? MAX_LISTING_ENTRIES_WITH_CONTENTS : MAX_LISTING_ENTRIES;
    if (entries.length > maxEntries) throw new SandboxLimitReached(sandboxTooLarge('listing-entries', maxEntries));
    let bytes = 0;
    return entries.map((e) => {
      if (e.type !== 'file' || !withContents) return { name: e.name, type: e.type };
      const content = sandbox.files.get(e.path) ?? '';
      bytes += utf8Length(content);
      if (bytes > MAX_LISTING_CONTENT_BYTES) throw new SandboxLimitReached(sandboxTooLarge('listing-bytes', MAX_LISTING_CONTENT_BYTES));
      return { name: e.name, type: e.type, content };
    });
  }

  async getTree(sandboxId: string, path: string, ignore: readonly string[] = TREE_IGNORE_LIST): Promise<readonly FileTreeEntry[]> {
    const { sandbox, rel } = this.at(sandboxId, path);
    let entries = 0;
    let bytes = 0;
    const count = (e: FileTreeEntry): void => {
      if (++entries > MAX_TREE_ENTRIES) throw new SandboxLimitReached(sandboxTooLarge('tree-entries', MAX_TREE_ENTRIES));
      bytes += utf8Length(e.name) + utf8Length(e.path);
      if (bytes > MAX_TREE_BYTES) throw new SandboxLimitReached(sandboxTooLarge('tree-bytes', MAX_TREE_BYTES));
    };
    const walk = (dir: string): FileTreeEntry[] =>
      this.children(sandbox, dir)
        .filter((e) => !matchesTreeIgnore(e.name, ignore))
        .map((e) => {
          count(e);
          return e.type === 'directory' ? { ...e, children: walk(e.path) } : e;
        });
    return walk(rel);
  }

  async runCommand(sandboxId: string, _command: string | readonly string[], options: RunCommandOptions = {}): Promise<CommandResult> {
    this.at(sandboxId, options.workingDir ?? DEFAULT_WORKING_DIR);
    return { exitCode: 126, stdout: '', stderr: 'The in-memory sandbox cannot run commands\n', timedOut: false, outputTruncated: false };
  }

  async machineState(sandboxId: string): Promise<SandboxMachineState> {
    this.checkId(sandboxId);
    const state = !this.sandboxes.has(sandboxId) ? 'missing' : this.running.has(sandboxId) ? 'running' : 'stopped';
    return { engine: 'memory', state, memoryBytes: null, cpuPercent: null };
  }

  async cleanup(sandboxId: string): Promise<void> {
    this.checkId(sandboxId);
    this.stop(sandboxId);
    this.sandboxes.delete(sandboxId);
    this.scripted.delete(sandboxId);
    this.installed.delete(sandboxId);
  }

  async saveVersion(sandboxId: string, message: string): Promise<SaveVersionResult> {
    if (message.trim() === '') return { success: false, message: 'A commit message is required' };
    const sandbox = this.sandboxes.get(sandboxId);
    if (sandbox === undefined) return { success: false, message: `No sandbox for project ${sandboxId}` };
    const hash = this.snapshot(sandbox, message);
    return hash === null ? { success: false, message: 'Nothing to commit' } : { success: true, message, hash };
  }

  async versionHistory(sandboxId: string): Promise<readonly SandboxVersion[]> {
    const sandbox = this.sandbox(sandboxId);
    return sandbox.versions.map(({ hash, message, date, filesChanged }) => ({ hash, message, date, filesChanged }));
  }

  async restoreVersion(sandboxId: string, hash: string): Promise<RestoreVersionResult> {
    const sandbox = this.sandboxes.get(sandboxId);
    if (sandbox === undefined) return { success: false, message: `No sandbox for project ${sandboxId}` };
    const target = /^[0-9a-f]{4,40}$/.test(hash) ? sandbox.versions.find((c) => c.hash.startsWith(hash)) : undefined;
    if (target === undefined) return { success: false, message: `Unknown version: ${hash}` };
    const short = target.hash.slice(0, 7);
    this.snapshot(sandbox, `Changes before restoring ${short}`);
    // Like git, a restore leaves the files versions never hold where they are.
    sandbox.files = new Map([...target.files, ...[...sandbox.files].filter(([p]) => isExcludedFromVersions(p))]);
    const saved = this.snapshot(sandbox, `Restore version ${short}`);
    return saved === null
      ? { success: true, message: `Already at version ${short}` }
      : { success: true, message: `Restored version ${short}`, hash: saved };
  }

  async restoreFile(sandboxId: string, hash: string, path: string): Promise<RestoreVersionResult> {
    const sandbox = this.sandboxes.get(sandboxId);
    if (sandbox === undefined) return { success: false, message: `No sandbox for project ${sandboxId}` };
    const target = /^[0-9a-f]{4,40}$/.test(hash) ? sandbox.versions.find((c) => c.hash.startsWith(hash)) : undefined;
    if (target === undefined) return { success: false, message: `Unknown version: ${hash}` };
    if (sandbox.dirs.has(path)) return { success: false, message: `Not a file: ${path}` };
    const short = target.hash.slice(0, 7);
    this.snapshot(sandbox, `Changes before undoing ${path} of ${short}`);
    // The version before it (newest first: the next one); the first version had nothing before it.
    const before = sandbox.versions[sandbox.versions.indexOf(target) + 1];
    const text = before?.files.get(path);
    if (text === undefined) sandbox.files.delete(path);
    else {
      this.addParents(sandbox, path);
      sandbox.files.set(path, text);
    }
    const saved = this.snapshot(sandbox, `Undo ${path} of version ${short}`);
    return saved === null ? { success: true, message: `${path} is already as before version ${short}` } : { success: true, message: `Undid ${path} of version ${short}`, hash: saved };
  }

  /** What findErrors answers for this sandbox from now on (the AI-support folder still dropped). */
  scriptErrors(sandboxId: string, errors: readonly CodeError[]): void {
    this.sandbox(sandboxId);
    this.scripted.set(sandboxId, errors);
  }

  async findErrors(sandboxId: string): Promise<ErrorScan> {
    this.sandbox(sandboxId);
    const errors = this.scripted.get(sandboxId);
    if (errors === undefined) throw new Error('The in-memory sandbox has no compiler');
    return errorScanFrom(errors);
  }

  /** Installs package.json's set as a real host would decide it (no packages, of course). */
  async installDependencies(sandboxId: string, options: InstallDependenciesOptions = {}): Promise<DependencyInstallResult> {
    const sandbox = this.sandbox(sandboxId);
    const manifest = sandbox.files.get('package.json');
    if (manifest === undefined) return { kind: 'not-managed', message: 'The project has no package.json.' };
    const set = dependencySetFromPackageJson(manifest);
    if (!set.ok) return { kind: 'failed', message: set.error.message };
    const wanted = canonicalDependencySet(set.value);
    const had = this.installed.get(sandboxId) ?? canonicalDependencySet(this.starterSet());
    if (wanted === had) return { kind: 'up-to-date' };
    options.onProgress?.('Installing in memory');
    if (this.installFailure !== null) return { kind: 'failed', message: this.installFailure };
    this.installCount += 1;
    this.installed.set(sandboxId, wanted);
    return { kind: 'installed' };
  }

  private starterSet() {
    const set = dependencySetFromPackageJson(IN_MEMORY_STARTER_FILES['package.json'] ?? '{}');
    if (!set.ok) throw new Error('The in-memory starter has a broken package.json');
    return set.value;
  }

  async restartDev(sandboxId: string): Promise<void> {
    this.sandbox(sandboxId);
    this.stop(sandboxId);
    this.emit(sandboxId, { status: 'starting', socketPath: null, message: 'Starting the dev server' });
    this.running.add(sandboxId);
    this.emit(sandboxId, IN_MEMORY_RUNNING);
  }

  /** There is no process in memory: a sandbox's "dev server" is running at once, on no port. */
  async devServer(sandboxId: string): Promise<DevServerState> {
    this.sandbox(sandboxId);
    if (!this.running.has(sandboxId)) {
      this.running.add(sandboxId);
      this.emit(sandboxId, IN_MEMORY_RUNNING);
    }
    return IN_MEMORY_RUNNING;
  }

  subscribe(listener: (event: SandboxHostEvent) => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  async stopAll(): Promise<void> {
    for (const sandboxId of [...this.running]) this.stop(sandboxId);
  }

  // ---------------------------------------------------------------------------------------------

  private stop(sandboxId: string): void {
    if (this.running.delete(sandboxId)) this.emit(sandboxId, IN_MEMORY_STOPPED);
  }

  private emit(sandboxId: string, state: DevServerState): void {
    for (const listener of [...this.listeners]) {
      try {
        listener({ type: 'dev-server', sandboxId, state });
      } catch {
        // a listener's failure is its own, as with a real host
      }
    }
  }

  private checkId(sandboxId: string): void {
    if (!isValidSandboxId(sandboxId)) throw new Error(`Invalid sandbox id: ${JSON.stringify(sandboxId)}`);
  }

  private sandbox(sandboxId: string): Sandbox {
    this.checkId(sandboxId);
    const sandbox = this.sandboxes.get(sandboxId);
    if (sandbox === undefined) throw new SandboxMissing(sandboxId);
    return sandbox;
  }

  private at(sandboxId: string, path: string): { sandbox: Sandbox; rel: string } {
    const sandbox = this.sandbox(sandboxId);
    const resolved = resolveSandboxPath(path);
    if (!resolved.ok) throw new SandboxPathRefused(resolved.error);
    return { sandbox, rel: resolved.value };
  }

  private addParents(sandbox: Sandbox, rel: string): void {
    const parts = rel.split('/');
    for (let i = 1; i < parts.length; i++) {
      const dir = parts.slice(0, i).join('/');
      if (sandbox.files.has(dir)) throw new Error(`Not a folder: ${dir}`);
      sandbox.dirs.add(dir);
    }
  }

  /** Direct children of a folder, folders first, then by name. */
  private children(sandbox: Sandbox, dir: string): FileTreeEntry[] {
    if (dir !== '.' && !sandbox.dirs.has(dir)) throw new FileMissing(`No such folder: ${dir}`);
    const prefix = dir === '.' ? '' : `${dir}/`;
    const direct = (p: string) => p.startsWith(prefix) && !p.slice(prefix.length).includes('/');
    const entry = (p: string, type: 'file' | 'directory'): FileTreeEntry => ({ name: p.slice(prefix.length), type, path: p });
    const dirs = [...sandbox.dirs].filter(direct).sort().map((p) => entry(p, 'directory'));
    const files = [...sandbox.files.keys()].filter(direct).sort().map((p) => entry(p, 'file'));
    return [...dirs, ...files];
  }

  /** Snapshots the files as a new version; null when nothing changed since the last one. */
  private snapshot(sandbox: Sandbox, message: string): string | null {
    const previous = sandbox.versions[0]?.files ?? new Map<string, string>();
    // Tool caches, installed packages and build output never enter a version (as git's exclude).
    const saved = new Map([...sandbox.files].filter(([p]) => !isExcludedFromVersions(p)));
    const changed = new Set<string>();
    for (const [p, text] of saved) if (previous.get(p) !== text) changed.add(p);
    for (const p of previous.keys()) if (!saved.has(p)) changed.add(p);
    if (changed.size === 0) return null;
    const hash = (++this.sequence).toString(16).padStart(40, '0');
    sandbox.versions.unshift({
      hash,
      message,
      date: this.clock.now(),
      filesChanged: [...changed].sort(),
      files: saved,
    });
    return hash;
  }
}

/** UTF-8 bytes of a text (the domain has no TextEncoder: no DOM or Node types). */
export function utf8Bytes(text: string): Uint8Array {
  const out: number[] = [];
  for (const char of text) {
    const c = char.codePointAt(0) ?? 0;
    if (c < 0x80) out.push(c);
    else if (c < 0x800) out.push(0xc0 | (c >> 6), 0x80 | (c & 63));
    else if (c < 0x10000) out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
    else out.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 63), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
  }
  return Uint8Array.from(out);
}
