import type { FileHandle } from 'node:fs/promises';
import { lstat, mkdir, open, readlink } from 'node:fs/promises';
import { MAX_LINK_HOPS, SandboxPathRefused, sandboxLinkLoop, sandboxPathOutside } from '@kiln/domain';
import { errnoOf, fdChild, fsError, OPEN_DIRECTORY } from './fd-paths.js';
import { linkTargetNames } from './link-target.js';

/** A folder of the project, held open: `names` is where it was reached, from the project root. */
export interface OpenFolder {
  readonly fd: number;
  readonly names: readonly string[];
  /** null for the project root, which the walker's owner closes. */
  readonly handle: FileHandle | null;
}

/** How often one path may be found changed under the walk (a folder swapped for a link and back) before giving up. */
const MAX_CHANGES = 16;

/**
 * Walks one requested path of a project, one name at a time from the project's open root folder,
 * never through a link: each name is opened relative to the folder before it (fd-paths.ts), so
 * renaming or swapping a folder after it was opened cannot redirect the walk. A link the project
 * made is followed by the walker itself: its target, read with readlink, is resolved to names
 * inside the project (link-target.ts) and walked again from the root the same way; a target
 * outside is refused (SANDBOX.PATH_OUTSIDE 'symlink-outside'), and more than MAX_LINK_HOPS links
 * is SANDBOX.LINK_LOOP. One walker serves one request.
 */
export class ProjectWalker {
  private hops = 0;
  private changes = 0;
  readonly root: OpenFolder;

  constructor(
    rootFd: number,
    private readonly projectDir: string,
    /** The path as the client sent it, for the refusals. */
    private readonly requested: string,
  ) {
    this.root = { fd: rootFd, names: [], handle: null };
  }

  /**
   * The folder `names` leads to, open; `create` makes the missing ones (mkdir -p). A name that is a
   * file rejects ENOTDIR (EEXIST for the last one when creating, as mkdir -p does); a missing one ENOENT.
   */
  async openFolder(names: readonly string[], { create = false } = {}): Promise<OpenFolder> {
    let pending = [...names];
    let current = this.root;
    try {
      while (pending.length > 0) {
        const name = pending[0] as string;
        const next = await this.openChild(current, name, { create, last: pending.length === 1 });
        if (next === 'link') {
          const target = await this.follow(current, name);
          if (target === null) continue; // not a link any more: open it again
          pending = [...target, ...pending.slice(1)];
          await this.release(current);
          current = this.root;
          continue;
        }
        pending.shift();
        await this.release(current);
        current = next;
      }
      return current;
    } catch (e) {
      await this.release(current);
      throw e;
    }
  }

  /** The folder holding the last of `names` (open) and that name; the root and null for no names. */
  async parentOf(names: readonly string[], options: { create?: boolean } = {}): Promise<{ folder: OpenFolder; name: string | null }> {
    if (names.length === 0) return { folder: this.root, name: null };
    return { folder: await this.openFolder(names.slice(0, -1), options), name: names[names.length - 1] as string };
  }

  /**
   * Where the link `name` in `folder` leads, as names from the root, to walk again; null when it is
   * no longer a link (it changed meanwhile: try again). Counts a hop.
   */
  async follow(folder: OpenFolder, name: string): Promise<string[] | null> {
    if (++this.hops > MAX_LINK_HOPS) throw new SandboxPathRefused(sandboxLinkLoop(this.requested));
    let target: string;
    try {
      target = await readlink(fdChild(folder.fd, name));
    } catch (e) {
      const code = errnoOf(e);
      if (code === 'EINVAL' || code === 'ENOENT') {
        this.changed();
        return null;
      }
      throw e;
    }
    const names = linkTargetNames(folder.names, target, this.projectDir);
    if (names === null) throw new SandboxPathRefused(sandboxPathOutside(this.requested, 'symlink-outside'));
    return names;
  }

  /** The path changed under the walk; after MAX_CHANGES times it is as good as missing. */
  changed(): void {
    if (++this.changes > MAX_CHANGES) throw fsError('ENOENT', `${this.requested} kept changing while it was opened`);
  }

  async release(folder: OpenFolder): Promise<void> {
    await folder.handle?.close();
  }

  /** Opens `name` in `folder` as a folder, without following it; 'link' when it is a link. */
  private async openChild(folder: OpenFolder, name: string, { create, last }: { create: boolean; last: boolean }): Promise<OpenFolder | 'link'> {
    const where = fdChild(folder.fd, name);
    for (let attempt = 0; ; attempt++) {
      // Each name on its own count: a write may create many folders, each once.
      if (attempt > MAX_CHANGES) throw fsError('ENOENT', `${this.requested} kept changing while it was opened`);
      try {
        const handle = await open(where, OPEN_DIRECTORY);
        return { fd: handle.fd, names: [...folder.names, name], handle };
      } catch (e) {
        const code = errnoOf(e);
        if (code === 'ENOENT' && create) {
          await mkdir(where).catch((m: unknown) => {
            if (errnoOf(m) !== 'EEXIST') throw m;
          });
          continue;
        }
        // O_DIRECTORY|O_NOFOLLOW on a link answers ENOTDIR (or ELOOP): look at what is there.
        if (code !== 'ENOTDIR' && code !== 'ELOOP') throw e;
        const info = await lstat(where).catch((l: unknown) => {
          if (errnoOf(l) === 'ENOENT') return null;
          throw l;
        });
        if (info?.isSymbolicLink() === true) return 'link';
        if (info === null || info.isDirectory()) continue; // gone, or a folder again: try again
        throw create && last ? fsError('EEXIST', `${this.requested}: a file has this name`) : fsError('ENOTDIR', `${this.requested}: not a folder`);
      }
    }
  }
}
