// Turning "this file should now read like this" into file operations: small search-and-replace
// edits whose search text occurs exactly once, or the whole file when edits would not be clearer.
import { countOccurrences, replaceOnce, type FileOperation } from '@kiln/domain';

interface Hunk {
  /** Old lines [oldStart, oldEnd) become new lines [newStart, newEnd). */
  oldStart: number;
  oldEnd: number;
  newStart: number;
  newEnd: number;
}

/** Changed line ranges between two texts (an LCS over the lines between the common ends). */
function diffLines(a: readonly string[], b: readonly string[]): Hunk[] {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start += 1;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA -= 1;
    endB -= 1;
  }
  const n = endA - start;
  const m = endB - start;
  if (n === 0 && m === 0) return [];
  if (n * m > 400_000) return [{ oldStart: start, oldEnd: endA, newStart: start, newEnd: endB }];
  // lcs[i][j]: LCS length of a[start+i..endA) and b[start+j..endB).
  const lcs: Uint16Array[] = Array.from({ length: n + 1 }, () => new Uint16Array(m + 1));
  for (let i = n - 1; i >= 0; i -= 1) {
    const row = lcs[i] as Uint16Array;
    const below = lcs[i + 1] as Uint16Array;
    for (let j = m - 1; j >= 0; j -= 1) {
      row[j] = a[start + i] === b[start + j] ? (below[j + 1] as number) + 1 : Math.max(below[j] as number, row[j + 1] as number);
    }
  }
  const hunks: Hunk[] = [];
  let i = 0;
  let j = 0;
  let open: Hunk | null = null;
  const close = () => {
    if (open) hunks.push(open);
    open = null;
  };
  while (i < n || j < m) {
    if (i < n && j < m && a[start + i] === b[start + j]) {
      close();
      i += 1;
      j += 1;
    } else if (j < m && (i === n || (lcs[i] as Uint16Array)[j + 1]! >= (lcs[i + 1] as Uint16Array)[j]!)) {
      open ??= { oldStart: start + i, oldEnd: start + i, newStart: start + j, newEnd: start + j };
      j += 1;
      open.newEnd = start + j;
    } else {
      open ??= { oldStart: start + i, oldEnd: start + i, newStart: start + j, newEnd: start + j };
      i += 1;
      open.oldEnd = start + i;
    }
  }
  close();
  return hunks;
}

/** Joins hunks that are close together, so that their context never overlaps. */
function mergeClose(hunks: Hunk[], gap: number): Hunk[] {
  const merged: Hunk[] = [];
  for (const hunk of hunks) {
    const last = merged[merged.length - 1];
    if (last && hunk.oldStart - last.oldEnd <= gap) {
      last.oldEnd = hunk.oldEnd;
      last.newEnd = hunk.newEnd;
    } else merged.push({ ...hunk });
  }
  return merged;
}

const MAX_CONTEXT = 6;
const MAX_EDITS = 6;

/**
 * Edits that turn `before` into `after`, each with a search text that occurs exactly once in the
 * file as it is when that edit applies; null when the file is better sent whole.
 */
export function editsBetween(path: string, before: string, after: string): FileOperation[] | null {
  if (before === after) return [];
  const a = before.split('\n');
  const b = after.split('\n');
  const hunks = mergeClose(diffLines(a, b), MAX_CONTEXT * 2 + 1);
  if (hunks.length === 0 || hunks.length > MAX_EDITS) return null;
  const edits: FileOperation[] = [];
  let working = before;
  let changed = 0;
  for (const hunk of hunks) {
    let above = 0;
    let below = 0;
    // A pure insertion needs at least one line around it to anchor the search.
    if (hunk.oldStart === hunk.oldEnd) {
      if (hunk.oldStart > 0) above = 1;
      else below = 1;
    }
    for (;;) {
      const from = hunk.oldStart - above;
      const to = hunk.oldEnd + below;
      const search = a.slice(from, to).join('\n');
      const replace = [...a.slice(from, hunk.oldStart), ...b.slice(hunk.newStart, hunk.newEnd), ...a.slice(hunk.oldEnd, to)].join('\n');
      if (search.trim() !== '' && countOccurrences(working, search) === 1) {
        edits.push({ type: 'edit_file', path, search, replace });
        working = replaceOnce(working, search, replace);
        changed += search.length + replace.length;
        break;
      }
      const canGrowUp = hunk.oldStart - above > 0 && above < MAX_CONTEXT;
      const canGrowDown = hunk.oldEnd + below < a.length && below < MAX_CONTEXT;
      if (!canGrowUp && !canGrowDown) return null;
      // One line of context at a time, above first.
      if (canGrowUp && (above <= below || !canGrowDown)) above += 1;
      else below += 1;
    }
  }
  // The edits must reproduce the new text exactly, and be clearly smaller than the file.
  if (working !== after || changed > after.length * 0.6) return null;
  return edits;
}

/**
 * Operations that bring one file from `before` to `after` (undefined: absent). Prefers edits;
 * `whole` forces a write_file (the caller asked for the whole file).
 */
export function operationsForFile(path: string, before: string | undefined, after: string | undefined, whole = false): FileOperation[] {
  if (before === after) return [];
  if (after === undefined) return [{ type: 'delete_file', path }];
  if (before === undefined || whole) return [{ type: 'write_file', path, content: after }];
  return editsBetween(path, before, after) ?? [{ type: 'write_file', path, content: after }];
}

/** Operations for every file whose target differs from the current text, in path order. */
export function operationsForFiles(
  current: ReadonlyMap<string, string>,
  target: ReadonlyMap<string, string | undefined>,
  wholeFile?: string,
): FileOperation[] {
  const paths = [...target.keys()].sort(pathOrder);
  return paths.flatMap((path) => operationsForFile(path, current.get(path), target.get(path), path === wholeFile));
}

/** Supporting files first (data, styles, components), then App.tsx and the entry files last. */
function pathOrder(a: string, b: string): number {
  const rank = (p: string) => (p === 'src/App.tsx' ? 2 : p === 'src/main.tsx' || p === 'index.html' ? 3 : p.startsWith('src/components/') || p.startsWith('src/pages/') ? 1 : 0);
  return rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0);
}
