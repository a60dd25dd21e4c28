/**
 * Kiln's side of the warm checks (runtime/warm-checks.mjs): find-errors answered by a project's
 * running dev server. The request and answer travel on the dev server's stdin and stdout, where
 * the project's own code runs too: an answer is validated like any input, and a forged one can
 * only mislead that project's own checks.
 */

/** The line Kiln writes (checkRequestLine). */
export const CHECK_REQUEST = 'kiln-check';
/** The line the dev server answers with: `KILN_CHECK_RESULT <id> <JSON>`. */
export const CHECK_RESULT_MARKER = 'KILN_CHECK_RESULT';

/** 'build' runs the Vite build after a clean type-check; 'vouch' only when an import needs it. */
export type WarmCheckMode = 'build' | 'vouch';

export type WarmCheckReply =
  | { readonly kind: 'fallback'; readonly reason: string }
  | {
      readonly kind: 'checked';
      /** `tsc --noEmit --pretty false` output, project-relative. */
      readonly typeOutput: string;
      readonly typeErrorCount: number;
      /** null: the build did not run; [] it passed; else rolldown's errors as the launcher reports them. */
      readonly buildErrors: readonly unknown[] | null;
    };

/** Most files (stylesheets, index.html) a vouch request may name: the request is one short line. */
export const MAX_VOUCHED_FILES = 20;

/**
 * Whether a warm check may vouch for the files changed since a build that passed, so the build
 * can be skipped: TypeScript modules under src/ (the type-check's), and stylesheets under src/ and
 * index.html (the running dev server transforms them afresh). A Vite config, package.json, a
 * public asset or anything else needs the build.
 */
export function warmCheckMayVouchFor(changedPaths: readonly string[]): boolean {
  const others = changedPaths.filter((p) => !isTypeScriptModule(p));
  return others.length <= MAX_VOUCHED_FILES && others.every((p) => p === 'index.html' || /^src\/(?:[^/]+\/)*[^/]+\.css$/.test(p));
}

export function isTypeScriptModule(p: string): boolean {
  return /^src\/(?:[^/]+\/)*[^/]+\.(?:ts|tsx|mts|cts)$/.test(p);
}

/** The request line: `kiln-check <id> build`, or `kiln-check <id> vouch <base64url JSON of the other changed files>`. */
export function checkRequestLine(id: string, mode: WarmCheckMode, changedPaths: readonly string[]): string {
  if (mode === 'build') return `${CHECK_REQUEST} ${id} build\n`;
  const others = changedPaths.filter((p) => !isTypeScriptModule(p));
  return `${CHECK_REQUEST} ${id} vouch ${Buffer.from(JSON.stringify(others)).toString('base64url')}\n`;
}

/** The JSON of an answer, checked; null when it is not one (the check then runs the cold way). */
export function parseWarmCheckReply(json: string): WarmCheckReply | null {
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch {
    return null;
  }
  if (!isRecord(raw) || !isRecord(raw['typeCheck'])) return null;
  const typeCheck = raw['typeCheck'];
  if (typeof typeCheck['fallback'] === 'string') return { kind: 'fallback', reason: typeCheck['fallback'].slice(0, 200) };
  const { output, errorCount } = typeCheck;
  if (typeof output !== 'string' || typeof errorCount !== 'number' || !Number.isInteger(errorCount) || errorCount < 0) return null;
  const build = raw['build'];
  let buildErrors: readonly unknown[] | null;
  if (build === null) buildErrors = null;
  else if (isRecord(build) && build['ok'] === true) buildErrors = [];
  else if (isRecord(build) && Array.isArray(build['errors'])) buildErrors = build['errors'].length > 0 ? build['errors'] : [{ message: 'The build failed' }];
  else return null;
  return { kind: 'checked', typeOutput: output, typeErrorCount: errorCount, buildErrors };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
