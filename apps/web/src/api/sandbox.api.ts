// /api/sandbox/{id}/…: a project's sandbox — files, commands, git, error scan, dev server.
// The wire contract is docs/sandbox-api.md; the names below keep its snake_case fields.
import type { Theme, ThemeApplyOutcome } from '@kiln/domain';
import { inject, injectable } from 'inversify';
import { type DownloadHttpClient, type HttpClient, TYPES } from '../app/ports';

/** SPEC §3 sandbox info as the API sends it; `url` is the preview address (with a preview token). */
export interface SandboxInfoDto {
  readonly status: string;
  readonly message: string;
  readonly app_name: string;
  readonly project_id: string;
  readonly url: string;
  readonly ipv4_address: string | null;
  readonly ipv6_address: string | null;
  readonly machine_created: boolean;
  /** False when the server runs project code without isolation (development without bubblewrap). */
  readonly isolated?: boolean;
  /** Why, when not isolated. */
  readonly isolation_warning?: string;
}

export type SandboxStatusWord = 'stopped' | 'starting' | 'running' | 'failed';

export interface SandboxStatusDto {
  readonly status: SandboxStatusWord;
  readonly message: string;
  readonly url: string;
}

export interface FileListEntryDto {
  readonly name: string;
  readonly type: 'file' | 'directory';
  readonly content?: string;
}

export interface FileTreeEntryDto {
  readonly name: string;
  readonly type: 'file' | 'directory';
  readonly path: string;
  readonly children?: readonly FileTreeEntryDto[];
}

export interface RunCommandInput {
  readonly command: string;
  /** Seconds; the API's default is 30 (SPEC §9). */
  readonly timeout?: number;
  readonly working_dir?: string;
  /** Output is streamed on the realtime feed under this id. */
  readonly command_id?: string;
}

export interface CommandResultDto {
  readonly exit_code: number;
  readonly stdout: string;
  readonly stderr: string;
  readonly timed_out: boolean;
  readonly output_truncated: boolean;
  /** Stopped by interrupt-command (exit code 130); absent from older servers. */
  readonly interrupted?: boolean;
}

/** What an import brought in. */
export interface RepositorySetUpDto {
  readonly success: boolean;
  readonly files: number;
  readonly bytes: number;
}

export interface GitResultDto {
  readonly success: boolean;
  readonly message: string;
  readonly hash?: string;
}

/** apply-theme's reply: what happened to src/index.css, and the version saved when it changed. */
export interface ApplyThemeResultDto {
  readonly outcome: ThemeApplyOutcome;
  /** The theme's name as applied. */
  readonly theme: string;
  /** Applied only: the version 'Apply theme <name>' (success false: the theme stays applied, without a version). */
  readonly commit?: GitResultDto;
}

export interface CommitDto {
  readonly hash: string;
  readonly message: string;
  /** ISO 8601. */
  readonly date: string;
  readonly files_changed: readonly string[];
}

export interface CodeErrorDto {
  readonly message: string;
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly severity: 'error' | 'warning';
  readonly stack?: string;
}

export interface FindErrorsDto {
  readonly errors: readonly CodeErrorDto[];
  readonly error_count: number;
  readonly warning_count: number;
  /** 'unavailable': the check could not run (the zero counts mean "not checked"); absent from older servers. */
  readonly status?: 'checked' | 'unavailable';
  /** Why it could not run, safe to show (with 'unavailable'). */
  readonly unavailable_reason?: string;
}

/** A file-tree action's reply: where it ended, and the version that records it (success false is an answer). */
export interface FileActionDto {
  readonly success: boolean;
  readonly path: string;
  readonly version: GitResultDto;
}

/** Clean up's reply: the top-level build output and caches removed, and the dev server after its restart. */
export interface CleanUpDto {
  readonly removed: readonly string[];
  readonly status: SandboxStatusWord;
  readonly message?: string;
}

export interface ReadDirectoryQuery {
  readonly includeContents?: boolean;
  readonly ignorePatterns?: readonly string[];
}

/**
 * Every route of docs/sandbox-api.md. Methods reject with ApiError as the HTTP client does; the
 * SPEC §8 fallbacks (empty lists, zero counts, toasts) are the view-models' policy.
 */
export interface SandboxApi {
  ensure(projectId: string): Promise<SandboxInfoDto>;
  info(projectId: string): Promise<SandboxInfoDto>;
  readFile(projectId: string, path: string): Promise<string>;
  writeFile(projectId: string, path: string, content: string): Promise<void>;
  deleteFile(projectId: string, path: string): Promise<void>;
  readDirectory(projectId: string, path: string, query?: ReadDirectoryQuery): Promise<readonly FileListEntryDto[]>;
  /** Without `ignore` the API applies SPEC §9's tree ignore list. */
  getTree(projectId: string, path?: string, ignore?: readonly string[]): Promise<readonly FileTreeEntryDto[]>;
  runCommand(projectId: string, input: RunCommandInput): Promise<CommandResultDto>;
  /** Stops the running command started with this command_id (Ctrl+C); false when none was running. */
  interruptCommand(projectId: string, commandId: string): Promise<boolean>;
  createDirectory(projectId: string, path: string): Promise<void>;
  cleanup(projectId: string): Promise<void>;
  gitCommit(projectId: string, message: string): Promise<GitResultDto>;
  gitHistory(projectId: string): Promise<readonly CommitDto[]>;
  gitRestore(projectId: string, commitHash: string): Promise<GitResultDto>;
  /** One file back as it was before the version `commitHash` (deleted if that version added it), as a new version. */
  gitRestoreFile(projectId: string, commitHash: string, path: string): Promise<GitResultDto>;
  findErrors(projectId: string): Promise<FindErrorsDto>;
  restartDev(projectId: string): Promise<SandboxStatusDto>;
  // The file tree's actions (docs/sandbox-api.md "File-tree actions"): each saved as a version.
  newFile(projectId: string, path: string): Promise<FileActionDto>;
  newFolder(projectId: string, path: string): Promise<FileActionDto>;
  rename(projectId: string, from: string, to: string): Promise<FileActionDto>;
  deletePath(projectId: string, path: string): Promise<FileActionDto>;
  cleanUp(projectId: string): Promise<CleanUpDto>;
  /** The project's files as a zip (without installed packages, caches, git or .env files). */
  exportZip(projectId: string): Promise<Blob>;
  /** Replaces the project's files with a public repository's (SPEC §7 setup/repository), saved as a version. */
  setupRepository(projectId: string, gitUrl: string): Promise<RepositorySetUpDto>;
  /** Merges the theme into src/index.css on the server, under the project's turn lock (409 PROJECTS.BUSY while a turn runs). */
  applyTheme(projectId: string, theme: Theme): Promise<ApplyThemeResultDto>;
}

/** The path of a sandbox route with its query (values encoded, empty ones left out). */
export function sandboxPath(projectId: string, route: string, query: Readonly<Record<string, string | undefined>> = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined) params.set(key, value);
  const search = params.toString();
  return `/api/sandbox/${encodeURIComponent(projectId)}/${route}${search === '' ? '' : `?${search}`}`;
}

@injectable()
export class HttpSandboxApi implements SandboxApi {
  constructor(
    @inject(TYPES.Http) private readonly http: HttpClient,
    @inject(TYPES.Download) private readonly downloads: DownloadHttpClient,
  ) {}

  ensure(projectId: string): Promise<SandboxInfoDto> {
    return this.http.post<SandboxInfoDto>(sandboxPath(projectId, 'ensure'));
  }

  info(projectId: string): Promise<SandboxInfoDto> {
    return this.http.get<SandboxInfoDto>(sandboxPath(projectId, 'info'));
  }

  async readFile(projectId: string, path: string): Promise<string> {
    const reply = await this.http.get<{ path: string; content: string }>(sandboxPath(projectId, 'read-file', { path }));
    return reply.content;
  }

  async writeFile(projectId: string, path: string, content: string): Promise<void> {
    await this.http.post(sandboxPath(projectId, 'write-file'), { path, content });
  }

  async deleteFile(projectId: string, path: string): Promise<void> {
    await this.http.delete(sandboxPath(projectId, 'delete-file', { path }));
  }

  readDirectory(projectId: string, path: string, query: ReadDirectoryQuery = {}): Promise<readonly FileListEntryDto[]> {
    return this.http.get<readonly FileListEntryDto[]>(
      sandboxPath(projectId, 'read-directory', {
        path,
        include_contents: query.includeContents === undefined ? undefined : String(query.includeContents),
        ignore_patterns: query.ignorePatterns === undefined ? undefined : query.ignorePatterns.join(','),
      }),
    );
  }

  getTree(projectId: string, path = '.', ignore?: readonly string[]): Promise<readonly FileTreeEntryDto[]> {
    return this.http.get<readonly FileTreeEntryDto[]>(sandboxPath(projectId, 'get-tree', { path, ignore: ignore?.join(',') }));
  }

  runCommand(projectId: string, input: RunCommandInput): Promise<CommandResultDto> {
    return this.http.post<CommandResultDto>(sandboxPath(projectId, 'run-command'), input);
  }

  async interruptCommand(projectId: string, commandId: string): Promise<boolean> {
    const reply = await this.http.post<{ interrupted: boolean }>(sandboxPath(projectId, 'interrupt-command'), { command_id: commandId });
    return reply.interrupted;
  }

  async createDirectory(projectId: string, path: string): Promise<void> {
    await this.http.post(sandboxPath(projectId, 'create-directory'), { path });
  }

  async cleanup(projectId: string): Promise<void> {
    await this.http.delete(sandboxPath(projectId, 'cleanup'));
  }

  gitCommit(projectId: string, message: string): Promise<GitResultDto> {
    return this.http.post<GitResultDto>(sandboxPath(projectId, 'git/commit'), { message });
  }

  gitHistory(projectId: string): Promise<readonly CommitDto[]> {
    return this.http.get<readonly CommitDto[]>(sandboxPath(projectId, 'git/history'));
  }

  gitRestore(projectId: string, commitHash: string): Promise<GitResultDto> {
    return this.http.post<GitResultDto>(sandboxPath(projectId, 'git/restore'), { commitHash });
  }

  gitRestoreFile(projectId: string, commitHash: string, path: string): Promise<GitResultDto> {
    return this.http.post<GitResultDto>(sandboxPath(projectId, 'git/restore-file'), { commitHash, path });
  }

  findErrors(projectId: string): Promise<FindErrorsDto> {
    return this.http.post<FindErrorsDto>(sandboxPath(projectId, 'find-errors'), {});
  }

  setupRepository(projectId: string, gitUrl: string): Promise<RepositorySetUpDto> {
    return this.http.post<RepositorySetUpDto>(sandboxPath(projectId, '__internal/api/setup/repository'), { gitUrl });
  }

  restartDev(projectId: string): Promise<SandboxStatusDto> {
    return this.http.post<SandboxStatusDto>(sandboxPath(projectId, 'restart-dev'));
  }

  newFile(projectId: string, path: string): Promise<FileActionDto> {
    return this.http.post<FileActionDto>(sandboxPath(projectId, 'actions/new-file'), { path }, { retry: false });
  }

  newFolder(projectId: string, path: string): Promise<FileActionDto> {
    return this.http.post<FileActionDto>(sandboxPath(projectId, 'actions/new-folder'), { path }, { retry: false });
  }

  rename(projectId: string, from: string, to: string): Promise<FileActionDto> {
    return this.http.post<FileActionDto>(sandboxPath(projectId, 'actions/rename'), { from, to }, { retry: false });
  }

  deletePath(projectId: string, path: string): Promise<FileActionDto> {
    return this.http.post<FileActionDto>(sandboxPath(projectId, 'actions/delete'), { path }, { retry: false });
  }

  cleanUp(projectId: string): Promise<CleanUpDto> {
    return this.http.post<CleanUpDto>(sandboxPath(projectId, 'actions/clean-up'), undefined, { retry: false });
  }

  exportZip(projectId: string): Promise<Blob> {
    return this.downloads.download(sandboxPath(projectId, 'export.zip'));
  }

  applyTheme(projectId: string, theme: Theme): Promise<ApplyThemeResultDto> {
    return this.http.post<ApplyThemeResultDto>(sandboxPath(projectId, 'apply-theme'), theme);
  }
}
