import { execFile } from 'node:child_process';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { isValidSandboxId, type RestoreVersionResult, VERSION_EXCLUDES, type SandboxVersion, type SandboxVersions, type SaveVersionResult } from '@kiln/domain';

const GIT_AUTHOR = { name: 'Kiln', email: 'builder@kiln.local' };
/**
 * Never committed: the domain's VERSION_EXCLUDES (installed or generated files, tool caches and
 * logs; 'node_modules' without a slash: it is a link). Written before every commit, so
 * repositories made before a pattern was added get it too.
 */
const GIT_EXCLUDES = [...VERSION_EXCLUDES, ''].join('\n');
const GIT_DIRS = '.kiln-git';
/** Paths per `git rm --cached` (a command line has a length limit). */
const UNTRACK_BATCH = 200;

export interface LocalSandboxVersionsOptions {
  /** The folder holding every project (real path); the repositories are in its `.kiln-git`. */
  readonly sandboxRoot: () => Promise<string>;
  /** A project's folder (the work tree); rejects for a malformed id. */
  readonly projectDir: (sandboxId: string) => Promise<string>;
  /** The same, rejecting unless the sandbox exists. */
  readonly existingProjectDir: (sandboxId: string) => Promise<string>;
  /** One operation at a time per sandbox (git's index lock; the host's creation and link swaps too). */
  readonly serialised: <T>(sandboxId: string, work: () => Promise<T>) => Promise<T>;
  /** Told before a restore changes the project's files. */
  readonly filesChanged: (sandboxId: string) => void;
  /** After a restore changed the project's files (the dev server is told where it cannot watch). */
  readonly restored?: (sandboxId: string) => void;
  /** PATH for git. */
  readonly commandPath: string;
}

/**
 * A local sandbox's versions: a git repository per project, kept beside it in
 * `<root>/.kiln-git/<projectId>` (out of reach of the project's own commands, so hooks and config
 * cannot be planted), run with Kiln's own config only. Saving is `git add --all` + commit;
 * restoring reads the old tree into the work tree and commits it on top.
 */
export class LocalSandboxVersions implements SandboxVersions {
  constructor(private readonly options: LocalSandboxVersionsOptions) {}

  async saveVersion(sandboxId: string, message: string): Promise<SaveVersionResult> {
    if (message.trim() === '') return { success: false, message: 'A commit message is required' };
    return this.options.serialised(sandboxId, async () => {
      try {
        await this.options.existingProjectDir(sandboxId);
        const hash = await this.commitAll(sandboxId, message);
        return hash === null ? { success: false, message: 'Nothing to commit' } : { success: true, message, hash };
      } catch (e) {
        return { success: false, message: `Commit failed: ${errorText(e)}` };
      }
    });
  }

  async versionHistory(sandboxId: string): Promise<readonly SandboxVersion[]> {
    await this.options.existingProjectDir(sandboxId);
    const out = await this.git(sandboxId, ['log', '--no-color', '--format=%x1e%H%x1f%cI%x1f%s', '--name-only', '--no-renames']);
    return out
      .split('\x1e')
      .filter((chunk) => chunk.trim() !== '')
      .map((chunk) => {
        const [header = '', ...files] = chunk.split('\n');
        const [hash = '', date = '', subject = ''] = header.split('\x1f');
        return { hash, message: subject, date: new Date(date), filesChanged: files.filter((f) => f !== '') };
      });
  }

  async restoreVersion(sandboxId: string, commitHash: string): Promise<RestoreVersionResult> {
    if (!/^[0-9a-f]{4,40}$/i.test(commitHash)) return { success: false, message: `Unknown version: ${commitHash}` };
    this.options.filesChanged(sandboxId);
    return this.announced(sandboxId, async () => {
      try {
        await this.options.existingProjectDir(sandboxId);
        let target: string;
        try {
          target = (await this.git(sandboxId, ['rev-parse', '--verify', '--quiet', `${commitHash}^{commit}`])).trim();
        } catch {
          return { success: false, message: `Unknown version: ${commitHash}` };
        }
        const short = target.slice(0, 7);
        await this.commitAll(sandboxId, `Changes before restoring ${short}`);
        await this.git(sandboxId, ['read-tree', '--reset', '-u', target]);
        const hash = await this.commitAll(sandboxId, `Restore version ${short}`);
        if (hash === null) return { success: true, message: `Already at version ${short}` };
        return { success: true, message: `Restored version ${short}`, hash };
      } catch (e) {
        return { success: false, message: `Restore failed: ${errorText(e)}` };
      }
    });
  }

  async restoreFile(sandboxId: string, commitHash: string, filePath: string): Promise<RestoreVersionResult> {
    if (!/^[0-9a-f]{4,40}$/i.test(commitHash)) return { success: false, message: `Unknown version: ${commitHash}` };
    this.options.filesChanged(sandboxId);
    return this.announced(sandboxId, async () => {
      try {
        await this.options.existingProjectDir(sandboxId);
        let target: string;
        try {
          target = (await this.git(sandboxId, ['rev-parse', '--verify', '--quiet', `${commitHash}^{commit}`])).trim();
        } catch {
          return { success: false, message: `Unknown version: ${commitHash}` };
        }
        const short = target.slice(0, 7);
        // The version before it; the first version had none (every file it has, it added).
        const parent = await this.git(sandboxId, ['rev-parse', '--verify', '--quiet', `${target}^{commit}^`]).then(
          (out) => out.trim(),
          () => null,
        );
        const before = parent === null ? null : await this.objectType(sandboxId, `${parent}:${filePath}`);
        const now = await this.objectType(sandboxId, `${target}:${filePath}`);
        if (before === 'tree' || now === 'tree') return { success: false, message: `Not a file: ${filePath}` };
        await this.commitAll(sandboxId, `Changes before undoing ${filePath} of ${short}`);
        // Pathspecs read literally: a file named '*.ts' is that file only.
        const literal = { GIT_LITERAL_PATHSPECS: '1' };
        if (before === 'blob') await this.git(sandboxId, ['checkout', parent ?? '', '--', filePath], literal);
        else await this.git(sandboxId, ['rm', '--quiet', '--ignore-unmatch', '--', filePath], literal);
        const hash = await this.commitAll(sandboxId, `Undo ${filePath} of version ${short}`);
        if (hash === null) return { success: true, message: `${filePath} is already as before version ${short}` };
        return { success: true, message: `Undid ${filePath} of version ${short}`, hash };
      } catch (e) {
        return { success: false, message: `Undo failed: ${errorText(e)}` };
      }
    });
  }

  /** 'blob', 'tree', … of `<commit>:<path>`; null when the path is not in that commit. */
  private async objectType(sandboxId: string, object: string): Promise<string | null> {
    try {
      return (await this.git(sandboxId, ['cat-file', '-t', object])).trim();
    } catch {
      return null;
    }
  }

  /** Where the sandbox's repository lives: beside the projects, never inside one. */
  private async gitDir(sandboxId: string): Promise<string> {
    if (!isValidSandboxId(sandboxId)) throw new Error(`Invalid sandbox id: ${JSON.stringify(sandboxId)}`);
    return path.join(await this.options.sandboxRoot(), GIT_DIRS, sandboxId);
  }

  /** Removes the sandbox's repository (cleanup, or a sandbox whose creation failed). */
  async remove(sandboxId: string): Promise<void> {
    await rm(await this.gitDir(sandboxId), { recursive: true, force: true });
  }

  /**
   * The git tree of the working copy, staged into a private index so the real one is untouched:
   * it names the project's files (those the project's own .gitignore hides aside).
   */
  async workingTree(sandboxId: string): Promise<string> {
    const index = { GIT_INDEX_FILE: path.join(await this.gitDir(sandboxId), 'kiln-scan-index') };
    await this.git(sandboxId, ['add', '--all'], index);
    return (await this.git(sandboxId, ['write-tree'], index)).trim();
  }

  /** The paths that differ between two trees of the sandbox's repository (workingTree's answers). */
  async changedPaths(sandboxId: string, fromTree: string, toTree: string): Promise<string[]> {
    if (![fromTree, toTree].every((tree) => /^[0-9a-f]{40,64}$/.test(tree))) throw new Error('Not a tree id');
    const out = await this.git(sandboxId, ['diff-tree', '-r', '-z', '--name-only', '--no-renames', fromTree, toTree]);
    return out.split('\0').filter((p) => p !== '');
  }

  /** A new repository for a new sandbox, its files as the first version. */
  async init(sandboxId: string): Promise<void> {
    const gitDir = await this.gitDir(sandboxId);
    await rm(gitDir, { recursive: true, force: true });
    await mkdir(path.dirname(gitDir), { recursive: true });
    await this.git(sandboxId, ['init', '--quiet', '--initial-branch=main']);
    await mkdir(path.join(gitDir, 'info'), { recursive: true });
    await writeFile(path.join(gitDir, 'info', 'exclude'), GIT_EXCLUDES, 'utf8');
    await this.commitAll(sandboxId, 'Initial version');
  }

  /** Stages everything and commits; null when there was nothing to commit. */
  private async commitAll(sandboxId: string, message: string): Promise<string | null> {
    await this.excludeToolFiles(sandboxId);
    await this.git(sandboxId, ['add', '--all']);
    const status = await this.git(sandboxId, ['status', '--porcelain']);
    if (status.trim() === '') return null;
    await this.git(sandboxId, ['commit', '--quiet', '--no-verify', '-m', message]);
    return (await this.git(sandboxId, ['rev-parse', 'HEAD'])).trim();
  }

  /**
   * The exclude file as VERSION_EXCLUDES says now, and files a version saved before a pattern
   * was added (an npm cache under `.npm`) no longer tracked: the next version drops them.
   */
  private async excludeToolFiles(sandboxId: string): Promise<void> {
    const info = path.join(await this.gitDir(sandboxId), 'info');
    await mkdir(info, { recursive: true });
    await writeFile(path.join(info, 'exclude'), GIT_EXCLUDES, 'utf8');
    const tracked = (await this.git(sandboxId, ['ls-files', '-z', '--cached', '--ignored', '--exclude-standard'])).split('\0').filter((p) => p !== '');
    for (let i = 0; i < tracked.length; i += UNTRACK_BATCH) {
      await this.git(sandboxId, ['rm', '-r', '--cached', '--quiet', '--ignore-unmatch', '--', ...tracked.slice(i, i + UNTRACK_BATCH)]);
    }
  }

  /** git with our own config only: the repository lives outside the project's reach. */
  private async git(sandboxId: string, args: readonly string[], extraEnv: Readonly<Record<string, string>> = {}): Promise<string> {
    const workTree = await this.options.projectDir(sandboxId);
    const gitDir = await this.gitDir(sandboxId);
    const env = {
      PATH: this.options.commandPath,
      HOME: workTree,
      LANG: 'C.UTF-8',
      GIT_DIR: gitDir,
      GIT_WORK_TREE: workTree,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_AUTHOR_NAME: GIT_AUTHOR.name,
      GIT_AUTHOR_EMAIL: GIT_AUTHOR.email,
      GIT_COMMITTER_NAME: GIT_AUTHOR.name,
      GIT_COMMITTER_EMAIL: GIT_AUTHOR.email,
      GIT_TERMINAL_PROMPT: '0',
      ...extraEnv,
    };
    const safe = ['-c', 'core.hooksPath=/dev/null', '-c', 'core.fsmonitor=false', '-c', 'commit.gpgSign=false', '-c', 'core.quotePath=false'];
    return new Promise((resolve, reject) => {
      execFile('git', [...safe, ...args], { cwd: workTree, env, maxBuffer: 64 * 1024 * 1024, timeout: 60_000 }, (error, stdout, stderr) => {
        if (error) reject(new Error(`git ${args[0] ?? ''}: ${stderr.trim() || error.message}`));
        else resolve(stdout);
      });
    });
  }

  /** A restore, serialised with the sandbox's other operations, then told to `restored`. */
  private async announced(sandboxId: string, work: () => Promise<RestoreVersionResult>): Promise<RestoreVersionResult> {
    try {
      return await this.options.serialised(sandboxId, work);
    } finally {
      this.options.restored?.(sandboxId);
    }
  }
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
