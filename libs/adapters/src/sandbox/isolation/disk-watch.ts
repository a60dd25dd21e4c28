import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';

/** How often a project folder is measured while something runs in its sandbox. */
export const DISK_WATCH_INTERVAL_MS = 1000;
/** A walk that meets more entries than this stops and counts as over the limit. */
const MAX_ENTRIES = 200_000;

export interface DiskWatchOptions {
  readonly limitBytes: number;
  readonly intervalMs?: number;
  /** The folder's size in bytes (links not followed, not counted beyond their own size). */
  readonly sizeOf?: (dir: string) => Promise<number>;
  /** Called once per measurement found over the limit. */
  readonly onOver: (sandboxId: string, bytes: number) => void;
}

/**
 * The project folder's size limit for what runs inside the sandbox. The file size rlimit already
 * stops any single file at the limit; this catches many files together: while a command, check or
 * dev server of a sandbox runs, its folder is measured every second and, once over the limit,
 * `onOver` stops them (LocalSandboxHost kills the sandbox's processes) — when it grew past the limit
 * since the watch began, so a project already over it can still remove files. Between two measurements a
 * fast writer may get up to a second of writes past the limit; they are stopped, not kept growing.
 */
export class DiskWatch {
  private readonly watched = new Map<string, { users: number; dir: string; timer: NodeJS.Timeout; measuring: boolean; baseline: number | null }>();

  constructor(private readonly options: DiskWatchOptions) {}

  /**
   * Measures `dir` while the returned release has not been called (calls nest per sandbox). The
   * first measurement (the size growth is counted from) is taken before it answers: call it before
   * starting the process.
   */
  async watch(sandboxId: string, dir: string): Promise<() => void> {
    const existing = this.watched.get(sandboxId);
    if (existing !== undefined) existing.users += 1;
    else {
      const entry = { users: 1, dir, measuring: false, baseline: null as number | null, timer: setInterval(() => void this.measure(sandboxId), this.options.intervalMs ?? DISK_WATCH_INTERVAL_MS) };
      entry.timer.unref();
      this.watched.set(sandboxId, entry);
      await this.measure(sandboxId);
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const entry = this.watched.get(sandboxId);
      if (entry === undefined) return;
      entry.users -= 1;
      if (entry.users > 0) return;
      clearInterval(entry.timer);
      this.watched.delete(sandboxId);
    };
  }

  private async measure(sandboxId: string): Promise<void> {
    const entry = this.watched.get(sandboxId);
    if (entry === undefined || entry.measuring) return;
    entry.measuring = true;
    try {
      const bytes = await (this.options.sizeOf ?? folderSize)(entry.dir);
      // Only growth past the limit stops anything: a project already over it (files written before
      // a lower limit) can still run commands that remove files.
      if (entry.baseline === null) entry.baseline = bytes;
      else if (bytes > this.options.limitBytes && bytes > entry.baseline && this.watched.get(sandboxId) === entry) this.options.onOver(sandboxId, bytes);
    } catch (e) {
      // A folder being removed: nothing to limit. A folder too deep or too big to measure is over.
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT' && this.watched.get(sandboxId) === entry) this.options.onOver(sandboxId, Number.POSITIVE_INFINITY);
    } finally {
      entry.measuring = false;
    }
  }
}

/** Bytes under `dir`, never following links (a link counts as itself), capped in entries. */
export async function folderSize(dir: string): Promise<number> {
  let total = 0;
  let entries = 0;
  const pending = [dir];
  while (pending.length > 0) {
    const current = pending.pop() as string;
    const names = await readdir(current).catch(() => [] as string[]);
    for (const name of names) {
      if (++entries > MAX_ENTRIES) return Number.POSITIVE_INFINITY;
      const full = path.join(current, name);
      const info = await lstat(full).catch(() => null);
      if (info === null) continue;
      total += info.isDirectory() ? 0 : info.size;
      if (info.isDirectory()) pending.push(full);
    }
  }
  return total;
}
