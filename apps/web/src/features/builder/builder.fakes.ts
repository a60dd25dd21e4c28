// Test doubles for the builder's ports. Plain classes that record what happened; a test
// scripts failures by setting a field.
import { mergeTheme, type Theme, THEME_STYLESHEET_PATH } from '@kiln/domain';
import { ApiError, type BuilderPreferences, type BuilderPreferencesStore } from '../../app/ports';
import type { Ids, UrlProbe, WindowMessage, WindowMessages } from '../../app/ui-ports';
import type {
  ApplyThemeResultDto,
  CommandResultDto,
  CommitDto,
  FileListEntryDto,
  CleanUpDto,
  FileActionDto,
  FileTreeEntryDto,
  FindErrorsDto,
  GitResultDto,
  ReadDirectoryQuery,
  RunCommandInput,
  SandboxApi,
  SandboxInfoDto,
  RepositorySetUpDto,
  SandboxStatusDto,
} from '../../api/sandbox.api';
import type { FeedConnection, FeedListener, FeedState, SandboxFeed, SandboxFeedEvent } from '../../api/sandbox-feed';
import { DEFAULT_BUILDER_PREFERENCES } from './builder-preferences';

export const PREVIEW_URL = 'http://p1.preview.localhost:3000/__kiln/auth?token=t1&next=/';
export const PREVIEW_ORIGIN = 'http://p1.preview.localhost:3000';

export function sandboxInfo(overrides: Partial<SandboxInfoDto> = {}): SandboxInfoDto {
  return {
    status: 'running',
    message: 'Website is running',
    app_name: 'kiln-p1',
    project_id: 'p1',
    url: PREVIEW_URL,
    ipv4_address: '127.0.0.1',
    ipv6_address: null,
    machine_created: true,
    ...overrides,
  };
}

export const TREE: readonly FileTreeEntryDto[] = [
  { name: 'package.json', type: 'file', path: 'package.json' },
  {
    name: 'src',
    type: 'directory',
    path: 'src',
    children: [
      { name: 'main.tsx', type: 'file', path: 'src/main.tsx' },
      { name: 'App.tsx', type: 'file', path: 'src/App.tsx' },
      { name: 'components', type: 'directory', path: 'src/components', children: [{ name: 'Button.tsx', type: 'file', path: 'src/components/Button.tsx' }] },
    ],
  },
  { name: 'index.html', type: 'file', path: 'index.html' },
];

/** A sandbox in memory: files by path, a history, scripted failures per method. */
export class FakeSandboxApi implements SandboxApi {
  info_ = sandboxInfo();
  files = new Map<string, string>([
    ['package.json', '{ "name": "app" }'],
    ['src/main.tsx', 'import App from "./App";'],
    ['src/App.tsx', 'export default function App() {}'],
    ['index.html', '<!doctype html>'],
  ]);
  tree: readonly FileTreeEntryDto[] = TREE;
  commits: CommitDto[] = [
    { hash: 'bbbbbbb2222', message: 'Add a header', date: '2024-01-01T11:58:00.000Z', files_changed: ['src/App.tsx', 'src/Header.tsx'] },
    { hash: 'aaaaaaa1111', message: 'Initial version', date: '2024-01-01T10:00:00.000Z', files_changed: ['package.json'] },
  ];
  scan: FindErrorsDto = {
    errors: [
      { message: "Cannot find name 'foo'.", file: 'src/App.tsx', line: 3, column: 7, severity: 'error' },
      { message: "'x' is declared but its value is never read.", file: 'src/main.tsx', line: 1, column: 5, severity: 'warning' },
    ],
    error_count: 1,
    warning_count: 1,
  };
  commandResult: CommandResultDto = { exit_code: 0, stdout: '', stderr: '', timed_out: false, output_truncated: false };
  commitResult: GitResultDto = { success: true, message: 'Committed', hash: 'ccccccc3333' };
  restoreResult: GitResultDto = { success: true, message: 'Restored', hash: 'ddddddd4444' };
  /** Method name → error it throws. */
  readonly failures = new Map<keyof SandboxApi, Error>();
  readonly calls: string[] = [];
  /** Files written in the sandbox: by write-file, or by apply-theme on the server's side. */
  readonly writes: { path: string; content: string }[] = [];
  /** The themes sent to apply-theme, with their project. */
  readonly appliedThemes: { projectId: string; theme: Theme }[] = [];
  /** What apply-theme answers; null: what the server would, from `files` (see applyTheme). */
  themeResult: ApplyThemeResultDto | null = null;
  readonly commands: RunCommandInput[] = [];
  /** Resolves run-command only when the test says so (null: answer at once). */
  holdCommand: Promise<void> | null = null;

  private async call(method: keyof SandboxApi, detail = ''): Promise<void> {
    this.calls.push(detail === '' ? method : `${method} ${detail}`);
    const failure = this.failures.get(method);
    if (failure) throw failure;
  }

  async ensure(): Promise<SandboxInfoDto> {
    await this.call('ensure');
    return this.info_;
  }
  async info(): Promise<SandboxInfoDto> {
    await this.call('info');
    return this.info_;
  }
  async readFile(_id: string, path: string): Promise<string> {
    await this.call('readFile', path);
    const content = this.files.get(path);
    if (content === undefined) throw new ApiError('File not found', 404, 'SANDBOX.FILE_NOT_FOUND', { code: 'SANDBOX.FILE_NOT_FOUND' });
    return content;
  }
  async writeFile(_id: string, path: string, content: string): Promise<void> {
    await this.call('writeFile', path);
    this.writes.push({ path, content });
    this.files.set(path, content);
  }
  async deleteFile(_id: string, path: string): Promise<void> {
    await this.call('deleteFile', path);
    this.files.delete(path);
  }
  async readDirectory(_id: string, path: string, _query?: ReadDirectoryQuery): Promise<readonly FileListEntryDto[]> {
    await this.call('readDirectory', path);
    return this.tree.map((entry) => ({ name: entry.name, type: entry.type }));
  }
  async getTree(): Promise<readonly FileTreeEntryDto[]> {
    await this.call('getTree');
    return this.tree;
  }
  async runCommand(_id: string, input: RunCommandInput): Promise<CommandResultDto> {
    await this.call('runCommand', input.command);
    this.commands.push(input);
    if (this.holdCommand) await this.holdCommand;
    return this.commandResult;
  }
  readonly interrupts: string[] = [];
  async interruptCommand(_id: string, commandId: string): Promise<boolean> {
    await this.call('interruptCommand', commandId);
    this.interrupts.push(commandId);
    return true;
  }
  async createDirectory(_id: string, path: string): Promise<void> {
    await this.call('createDirectory', path);
  }
  async cleanup(): Promise<void> {
    await this.call('cleanup');
  }
  async gitCommit(_id: string, message: string): Promise<GitResultDto> {
    await this.call('gitCommit', message);
    return this.saveVersion(message, ['src/App.tsx']);
  }
  /**
   * As the server's ApplyProjectTheme does, on `files`: the theme merged into src/index.css
   * (mergeTheme), written when it changed and saved as the version 'Apply theme <name>'
   * (`commitResult`); no stylesheet is the server's 404.
   */
  async applyTheme(projectId: string, theme: Theme): Promise<ApplyThemeResultDto> {
    await this.call('applyTheme', theme.name);
    this.appliedThemes.push({ projectId, theme });
    if (this.themeResult !== null) return this.themeResult;
    const original = this.files.get(THEME_STYLESHEET_PATH);
    if (original === undefined) throw new ApiError('File not found', 404, 'SANDBOX.FILE_NOT_FOUND', { code: 'SANDBOX.FILE_NOT_FOUND', path: THEME_STYLESHEET_PATH });
    const merged = mergeTheme(original, theme);
    if (merged.keptOriginal) return { outcome: 'kept-original', theme: theme.name };
    if (merged.stylesheet === original) return { outcome: 'unchanged', theme: theme.name };
    this.writes.push({ path: THEME_STYLESHEET_PATH, content: merged.stylesheet });
    this.files.set(THEME_STYLESHEET_PATH, merged.stylesheet);
    return { outcome: 'applied', theme: theme.name, commit: this.saveVersion(`Apply theme ${theme.name}`, [THEME_STYLESHEET_PATH]) };
  }
  private saveVersion(message: string, filesChanged: readonly string[]): GitResultDto {
    if (this.commitResult.success) {
      this.commits = [{ hash: this.commitResult.hash ?? 'new', message, date: '2024-01-01T12:00:00.000Z', files_changed: filesChanged }, ...this.commits];
    }
    return this.commitResult;
  }
  async gitHistory(): Promise<readonly CommitDto[]> {
    await this.call('gitHistory');
    return this.commits;
  }
  async gitRestore(_id: string, hash: string): Promise<GitResultDto> {
    await this.call('gitRestore', hash);
    return this.restoreResult;
  }
  async gitRestoreFile(_id: string, hash: string, path: string): Promise<GitResultDto> {
    await this.call('gitRestoreFile', `${hash} ${path}`);
    return this.restoreResult;
  }
  async findErrors(): Promise<FindErrorsDto> {
    await this.call('findErrors');
    return this.scan;
  }
  async restartDev(): Promise<SandboxStatusDto> {
    await this.call('restartDev');
    return { status: 'starting', message: 'Starting', url: this.info_.url };
  }
  // The file tree's actions, on `files` as the server would (a taken name is its 409).
  async newFile(_id: string, path: string): Promise<FileActionDto> {
    await this.call('newFile', path);
    if (this.files.has(path)) throw new ApiError('Something else already has this name', 409, 'SANDBOX.PATH_TAKEN', { code: 'SANDBOX.PATH_TAKEN' });
    this.files.set(path, '');
    return this.actionDone(path, `Create ${path}`);
  }
  async newFolder(_id: string, path: string): Promise<FileActionDto> {
    await this.call('newFolder', path);
    return { success: true, path, version: { success: false, message: 'Nothing to save' } };
  }
  async rename(_id: string, from: string, to: string): Promise<FileActionDto> {
    await this.call('rename', `${from} -> ${to}`);
    for (const [path, content] of [...this.files]) {
      if (path !== from && !path.startsWith(`${from}/`)) continue;
      this.files.delete(path);
      this.files.set(`${to}${path.slice(from.length)}`, content);
    }
    return this.actionDone(to, `Rename ${from} to ${to}`);
  }
  async deletePath(_id: string, path: string): Promise<FileActionDto> {
    await this.call('deletePath', path);
    for (const file of [...this.files.keys()]) if (file === path || file.startsWith(`${path}/`)) this.files.delete(file);
    return this.actionDone(path, `Delete ${path}`);
  }
  async cleanUp(): Promise<CleanUpDto> {
    await this.call('cleanUp');
    return { removed: ['dist'], status: 'running', message: 'Running' };
  }
  async exportZip(id: string): Promise<Blob> {
    await this.call('exportZip', id);
    return new Blob(['PK'], { type: 'application/zip' });
  }
  async setupRepository(id: string, gitUrl: string): Promise<RepositorySetUpDto> {
    await this.call('setupRepository', `${id} ${gitUrl}`);
    return { success: true, files: 12, bytes: 4096 };
  }
  private actionDone(path: string, message: string): FileActionDto {
    return { success: true, path, version: this.saveVersion(message, [path]) };
  }
}

/** A feed the test drives: `emit` delivers an event to the connected listener. */
export class FakeFeed implements SandboxFeed {
  listener: FeedListener | null = null;
  readonly connected: string[] = [];
  closed = 0;

  connect(projectId: string, listener: FeedListener): FeedConnection {
    this.connected.push(projectId);
    this.listener = listener;
    listener.onState('connecting');
    listener.onState('open');
    return {
      close: () => {
        this.closed += 1;
        if (this.listener === listener) this.listener = null;
        listener.onState('closing');
        listener.onState('closed');
      },
    };
  }

  emit(event: SandboxFeedEvent): void {
    this.listener?.onEvent(event);
  }

  state(state: FeedState): void {
    this.listener?.onState(state);
  }
}

export class FakeWindowMessages implements WindowMessages {
  private listeners = new Set<(message: WindowMessage) => void>();
  subscribe(listener: (message: WindowMessage) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  post(origin: string, data: unknown): void {
    for (const listener of this.listeners) listener({ origin, data });
  }
  get subscribers(): number {
    return this.listeners.size;
  }
}

export class SequentialIds implements Ids {
  private n = 0;
  next(): string {
    this.n += 1;
    return `cmd-${this.n}`;
  }
}

export class FakeUrlProbe implements UrlProbe {
  readonly probed: string[] = [];
  constructor(public reachable = false) {}
  async isReachable(url: string): Promise<boolean> {
    this.probed.push(url);
    return this.reachable;
  }
}

export class MemoryPreferences implements BuilderPreferencesStore {
  readonly saved: BuilderPreferences[] = [];
  constructor(private stored: BuilderPreferences = DEFAULT_BUILDER_PREFERENCES) {}
  load(): BuilderPreferences {
    return this.stored;
  }
  save(preferences: BuilderPreferences): void {
    this.stored = preferences;
    this.saved.push(preferences);
  }
}
