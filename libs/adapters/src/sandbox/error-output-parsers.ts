import path from 'node:path';
import { classifyErrorSeverity, type CodeError } from '@kiln/domain';

/** The line vite-launcher.mjs prints once the dev server listens: `KILN_DEV_SERVER_READY <port>`. */
export const DEV_SERVER_READY_MARKER = 'KILN_DEV_SERVER_READY';
/** The line vite-launcher.mjs prints when a build fails: `KILN_BUILD_ERRORS <JSON array>`. */
export const BUILD_ERRORS_MARKER = 'KILN_BUILD_ERRORS';

// `src/App.tsx(3,7): error TS2322: Type 'number' is not assignable to type 'string'.`
// The file name may itself hold parentheses (`src/(auth)/page.tsx`): the position is the last one.
const TSC_LOCATED = /^(.+)\((\d+),(\d+)\): (error|warning|message) TS(\d+): (.*)$/;
// `error TS5058: The specified path does not exist: 'nothere'.` (no file: options, tsconfig)
const TSC_UNLOCATED = /^(error|warning|message) TS(\d+): (.*)$/;
const ANSI = /\u001b\[[0-9;]*[A-Za-z]/g;
// Rolldown's code frame header: `╭─[ src/broken.js:1:11 ]` (1-based line and column).
const FRAME_HEADER = /╭─\[\s*(.+?):(\d+):(\d+)\s*\]/;

/**
 * Parses `tsc --pretty false` output into code errors. A diagnostic's further lines (indented by
 * two spaces: the chain of "Types of property … are incompatible") belong to its message.
 * Files are project-relative (tsc prints them relative to its working directory, the project;
 * absolute paths inside `projectRoot` are made relative); a diagnostic without a file has file ''
 * and line and column 0.
 */
export function parseTscOutput(output: string, projectRoot?: string): CodeError[] {
  const found: { file: string; line: number; column: number; lines: string[] }[] = [];
  for (const raw of output.replace(ANSI, '').split(/\r?\n/)) {
    const located = TSC_LOCATED.exec(raw);
    if (located !== null) {
      const [, file = '', line = '0', column = '0', , , text = ''] = located;
      found.push({ file: relativeTo(projectRoot, file), line: Number(line), column: Number(column), lines: [text] });
      continue;
    }
    const unlocated = TSC_UNLOCATED.exec(raw);
    if (unlocated !== null) {
      found.push({ file: '', line: 0, column: 0, lines: [unlocated[3] ?? ''] });
      continue;
    }
    const last = found[found.length - 1];
    if (last !== undefined && /^\s+\S/.test(raw)) last.lines.push(raw.trim());
  }
  return found.map(({ file, line, column, lines }) => codeError(lines.join('\n'), file, line, column));
}

/** What the launcher reports per build error (rolldown's shape, ANSI colours already removed). */
interface RawBuildError {
  readonly message?: unknown;
  readonly id?: unknown;
  readonly loc?: { readonly file?: unknown; readonly line?: unknown; readonly column?: unknown };
}

/**
 * The errors of a failed Vite build from the launcher's stdout; null when the output has no
 * `KILN_BUILD_ERRORS` line (the build passed, or the launcher itself failed). The message is the
 * error's first line without rolldown's `[CODE]` prefix; file, line and column come from the
 * error's location (rolldown's column is 0-based), else from its code frame header, else '' and 0.
 */
export function parseViteBuildErrors(stdout: string, projectRoot?: string): CodeError[] | null {
  const line = stdout
    .split(/\r?\n/)
    .reverse()
    .find((l) => l.startsWith(`${BUILD_ERRORS_MARKER} `));
  if (line === undefined) return null;
  let raw: unknown;
  try {
    raw = JSON.parse(line.slice(BUILD_ERRORS_MARKER.length + 1));
  } catch {
    return null;
  }
  return buildErrorsFrom(Array.isArray(raw) ? raw : [], projectRoot);
}

/**
 * Code errors from the launcher's list of build errors (what the `KILN_BUILD_ERRORS` line and a
 * warm check carry); one generic error for an empty list (the build failed all the same).
 */
export function buildErrorsFrom(raw: readonly unknown[], projectRoot?: string): CodeError[] {
  const list = raw.filter((e): e is RawBuildError => typeof e === 'object' && e !== null);
  const errors = list.map((e) => {
    const full = (typeof e.message === 'string' ? e.message : String(e.message ?? '')).replace(ANSI, '');
    const header = FRAME_HEADER.exec(full);
    const fileFromLoc = typeof e.loc?.file === 'string' ? e.loc.file : typeof e.id === 'string' ? e.id : undefined;
    const file = fileFromLoc !== undefined ? cleanModuleId(fileFromLoc) : (header?.[1] ?? '');
    const hasLoc = typeof e.loc?.line === 'number' && typeof e.loc.column === 'number';
    const lineNo = hasLoc ? (e.loc?.line as number) : Number(header?.[2] ?? 0);
    const column = hasLoc ? (e.loc?.column as number) + 1 : Number(header?.[3] ?? 0);
    return codeError(firstLine(full), relativeTo(projectRoot, file), lineNo, column);
  });
  return errors.length > 0 ? errors : [codeError('The build failed', '', 0, 0)];
}

function codeError(message: string, file: string, line: number, column: number): CodeError {
  return { message, file, line, column, severity: classifyErrorSeverity(message) };
}

/** The message before rolldown's code frame, without a leading `[UNRESOLVED_IMPORT] ` tag. */
function firstLine(message: string): string {
  const head = message.split(/\r?\n/).find((l) => l.trim() !== '') ?? '';
  return head.replace(/^\s*\[[^\]\s]+\]\s*/, '').trim() || message.trim();
}

/** A module id without Vite's query (`?v=…`) and without virtual modules' NUL prefix. */
function cleanModuleId(id: string): string {
  if (id.startsWith('\0')) return '';
  const q = id.indexOf('?');
  return q === -1 ? id : id.slice(0, q);
}

function relativeTo(projectRoot: string | undefined, file: string): string {
  if (projectRoot === undefined || !path.isAbsolute(file)) return file;
  const rel = path.relative(projectRoot, file);
  return rel === '' || rel.startsWith('..') || path.isAbsolute(rel) ? file : rel.split(path.sep).join('/');
}
