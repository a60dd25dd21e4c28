import type { DataApiTarget, DataApiTargets } from '@kiln/domain';

/** How long a looked-up target (or "no database at this ref") is reused: the bound on staleness. */
export const TARGET_CACHE_MS = 1000;
const MAX_ENTRIES = 10_000;

interface Entry {
  readonly at: number;
  readonly target: Promise<DataApiTarget | null>;
}

/**
 * The data API's lookups by ref, kept for TARGET_CACHE_MS: a lookup is a read of Kiln's database
 * and two decryptions, too much for every request. A database detached, deleted or reprovisioned
 * through this process is forgotten at once (`forget`); any other change (a deleted project,
 * another API process) is seen within TARGET_CACHE_MS. Concurrent lookups of one ref share one
 * read; a failed read is not kept.
 */
export class DataApiTargetCache implements DataApiTargets {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly source: DataApiTargets,
    private readonly ttlMs = TARGET_CACHE_MS,
    private readonly now: () => number = Date.now,
  ) {}

  findByRef(ref: string): Promise<DataApiTarget | null> {
    const at = this.now();
    const hit = this.entries.get(ref);
    if (hit !== undefined && at - hit.at < this.ttlMs && at >= hit.at) return hit.target;
    const entry: Entry = { at, target: this.source.findByRef(ref) };
    this.entries.delete(ref); // re-inserted last: the oldest entry is the first one
    this.entries.set(ref, entry);
    if (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
    entry.target.catch(() => {
      if (this.entries.get(ref) === entry) this.entries.delete(ref);
    });
    return entry.target;
  }

  forget(ref: string): void {
    this.entries.delete(ref);
  }
}
