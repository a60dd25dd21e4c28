// Repairing mechanical code errors without a model ("Fix with AI" and repair rounds): a missing
// closing brace, parenthesis or bracket, a stray character at the reported position, a missing
// import of a React hook or of a component another project file exports, and a misspelt name
// (edit distance 1–2 from a defined one). Anything else needs a configured model.
import type { CodeError } from '@kiln/domain';

export interface Repair {
  readonly path: string;
  readonly content: string;
  /** One sentence: what was changed. */
  readonly summary: string;
}

/** "Fix this error in src/App.tsx:3:5: Cannot find name 'x'." — the message "Fix with AI" sends. */
const FIX_PROMPT = /^\s*fix (?:this|the) error in\s+(\S+?):(\d+):(\d+):\s*([\s\S]+?)\s*$/i;

export function parseFixPrompt(prompt: string): CodeError | null {
  const m = FIX_PROMPT.exec(prompt);
  if (!m) return null;
  return { file: m[1] as string, line: Number(m[2]), column: Number(m[3]), message: m[4] as string, severity: 'error' };
}

export const REPAIR_LIMITS =
  'Offline I can fix only mechanical errors: a missing closing brace, parenthesis or bracket, a stray character at the reported place, a missing import of a React hook or of a component defined in another file, and a misspelt name. A configured AI model is needed for this one.';

const REACT_HOOKS = ['useState', 'useEffect', 'useMemo', 'useCallback', 'useRef', 'useReducer', 'useContext', 'useLayoutEffect', 'useId', 'useTransition', 'useDeferredValue', 'useSyncExternalStore', 'useOptimistic', 'useActionState'];
const CLOSERS: Readonly<Record<string, string>> = { ')': '(', ']': '[', '}': '{' };
const OPENERS = new Set(['(', '[', '{']);

// ── Reading the file ──────────────────────────────────────────────────────────────────────────

/** Whether every bracket has its partner, in order (strings, templates and comments skipped). */
export function bracketsBalanced(text: string): boolean {
  const stack: string[] = [];
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i] as string;
    const next = text[i + 1];
    if (c === '/' && next === '/') {
      const end = text.indexOf('\n', i);
      i = end === -1 ? text.length : end;
    } else if (c === '/' && next === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end === -1 ? text.length : end + 1;
    } else if (c === '`') {
      let j = i + 1;
      while (j < text.length && text[j] !== '`') j += text[j] === '\\' ? 2 : 1;
      i = j;
    } else if (c === "'" || c === '"') {
      // A quote that does not close on its line is text (an apostrophe in JSX), not a string.
      let j = i + 1;
      while (j < text.length && text[j] !== c && text[j] !== '\n') j += text[j] === '\\' ? 2 : 1;
      if (text[j] === c) i = j;
    } else if (OPENERS.has(c)) {
      stack.push(c);
    } else if (c in CLOSERS) {
      if (stack.pop() !== CLOSERS[c]) return false;
    }
  }
  return stack.length === 0;
}

/** The index of a 1-based line and column (clamped to the text). */
function offsetOf(text: string, line: number, column: number): number {
  const lines = text.split('\n');
  if (line > lines.length) return text.length;
  let at = 0;
  for (let i = 0; i < line - 1; i += 1) at += (lines[i] as string).length + 1;
  return Math.min(at + Math.max(0, column - 1), at + (lines[line - 1] as string).length);
}

function escapeRegExp(value: string): string {
  return value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Optimal string alignment distance (a swap of two letters counts as one). */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i += 1) {
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const row = d[i] as number[];
      const up = d[i - 1] as number[];
      row[j] = Math.min((up[j] as number) + 1, (row[j - 1] as number) + 1, (up[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) row[j] = Math.min(row[j] as number, ((d[i - 2] as number[])[j - 2] as number) + 1);
    }
  }
  return (d[a.length] as number[])[b.length] as number;
}

/** Names a file declares or imports. */
function namesIn(text: string): Set<string> {
  const names = new Set<string>();
  for (const m of text.matchAll(/\b(?:const|let|var|function|class|interface|type|enum)\s+([A-Za-z_$][\w$]*)/g)) names.add(m[1] as string);
  for (const m of text.matchAll(/\b(?:const|let|var)\s*[[{]([^\]}=]*)[\]}]\s*=/g)) for (const n of (m[1] as string).matchAll(/([A-Za-z_$][\w$]*)\s*(?=,|$|\s*=)/g)) names.add(n[1] as string);
  for (const m of text.matchAll(/import\s+(?:type\s+)?(?:([A-Za-z_$][\w$]*)\s*,?\s*)?(?:\{([^}]*)\})?\s*from/g)) {
    if (m[1]) names.add(m[1]);
    for (const part of (m[2] ?? '').split(',')) {
      const local = part.trim().split(/\s+as\s+/).pop()?.replace(/^type\s+/, '').trim();
      if (local) names.add(local);
    }
  }
  for (const m of text.matchAll(/\(([^()]*)\)\s*(?::\s*[^=>{]+)?\s*(?:=>|\{)/g)) for (const n of (m[1] as string).matchAll(/(?:^|[,{(]\s*)([A-Za-z_$][\w$]*)/g)) names.add(n[1] as string);
  return names;
}

/** Names other project files export, with the file. */
function exportsOf(files: ReadonlyMap<string, string>, except: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const [path, text] of files) {
    if (path === except || !/^src\/.*\.(tsx?|jsx?)$/.test(path)) continue;
    for (const m of text.matchAll(/\bexport\s+(?:default\s+)?(?:async\s+)?(?:function|const|let|class|interface|type|enum)\s+([A-Za-z_$][\w$]*)/g)) {
      if (!found.has(m[1] as string)) found.set(m[1] as string, path);
    }
  }
  return found;
}

function relativeImport(from: string, to: string): string {
  const fromDir = from.split('/').slice(0, -1);
  const target = to.replace(/\.(tsx?|jsx?)$/, '').split('/');
  let common = 0;
  while (common < fromDir.length && fromDir[common] === target[common]) common += 1;
  const up = fromDir.length - common;
  const rest = target.slice(common).join('/');
  return up === 0 ? `./${rest}` : `${'../'.repeat(up)}${rest}`;
}

/** Adds `name` to the file's `import { … } from 'module'`, or a new import line after the last one. */
function withNamedImport(text: string, name: string, module: string): string {
  const existing = new RegExp(`import\\s+(?:([A-Za-z_$][\\w$]*)\\s*,\\s*)?\\{([^}]*)\\}\\s*from\\s*['"]${escapeRegExp(module)}['"];?`);
  const m = existing.exec(text);
  if (m) {
    const names = (m[2] as string).split(',').map((n) => n.trim()).filter(Boolean);
    const line = `import ${m[1] ? `${m[1]}, ` : ''}{ ${[...names, name].join(', ')} } from '${module}';`;
    return text.replace(m[0], () => line);
  }
  const lines = text.split('\n');
  let last = -1;
  lines.forEach((l, i) => {
    if (/^import\s/.test(l) || (last !== -1 && i === last + 1 && /^\s+[\w,{} ]*$|from\s+['"]/.test(l))) last = i;
  });
  lines.splice(last + 1, 0, `import { ${name} } from '${module}';`);
  return lines.join('\n');
}

// ── Repairs ───────────────────────────────────────────────────────────────────────────────────

const UNKNOWN_NAME = /Cannot find name '([A-Za-z_$][\w$]*)'|'([A-Za-z_$][\w$]*)' is not defined|\b([A-Za-z_$][\w$]*) is not defined/;

function repairUnknownName(error: CodeError, text: string, files: ReadonlyMap<string, string>): Repair | null {
  const m = UNKNOWN_NAME.exec(error.message);
  const name = m?.[1] ?? m?.[2] ?? m?.[3];
  if (name === undefined) return null;
  const where = `${error.file}:${error.line}:${error.column}`;
  if (REACT_HOOKS.includes(name)) {
    return { path: error.file, content: withNamedImport(text, name, 'react'), summary: `Imported ${name} from React in ${error.file} (${where}).` };
  }
  const exported = exportsOf(files, error.file);
  const home = exported.get(name);
  if (home !== undefined) {
    const module = relativeImport(error.file, home);
    return { path: error.file, content: withNamedImport(text, name, module), summary: `Imported ${name} from ${home} in ${error.file} (${where}).` };
  }
  // A misspelt name: TypeScript's suggestion, or the one defined name 1–2 edits away.
  const suggested = /Did you mean '([A-Za-z_$][\w$]*)'/.exec(error.message)?.[1];
  const known = new Set([...namesIn(text), ...REACT_HOOKS, ...exported.keys()]);
  known.delete(name);
  const limit = name.length <= 4 ? 1 : 2;
  const scored = [...known].map((candidate) => ({ candidate, distance: editDistance(name, candidate) })).filter((c) => c.distance <= limit);
  const best = Math.min(...scored.map((c) => c.distance));
  const closest = scored.filter((c) => c.distance === best);
  const fix = suggested ?? (closest.length === 1 ? closest[0]?.candidate : undefined);
  if (fix === undefined) return null;
  const at = offsetOf(text, error.line, error.column);
  let content: string;
  if (text.slice(at, at + name.length) === name) content = text.slice(0, at) + fix + text.slice(at + name.length);
  else content = text.replace(new RegExp(`(?<![\\w$.])${escapeRegExp(name)}(?![\\w$])`, 'g'), () => fix);
  if (content === text) return null;
  if (REACT_HOOKS.includes(fix) && !namesIn(text).has(fix)) content = withNamedImport(content, fix, 'react');
  else if (exported.has(fix) && !namesIn(text).has(fix)) content = withNamedImport(content, fix, relativeImport(error.file, exported.get(fix) as string));
  return { path: error.file, content, summary: `Replaced the unknown name ${name} with ${fix} in ${error.file} (${where}).` };
}

const EXPECTED_CLOSER = /'([)\]}])' expected|Expected "([)\]}])"|Expected '([)\]}])'|expected "([)\]}])"/i;
const STRAY = /Unexpected (?:token|character|"[^"]*"|'[^']*')|Invalid character|Declaration or statement expected|Expression expected|Unexpected end|Unterminated|expected/i;

function repairBrackets(error: CodeError, text: string): Repair | null {
  const where = `${error.file}:${error.line}:${error.column}`;
  const at = offsetOf(text, error.line, error.column);
  const m = EXPECTED_CLOSER.exec(error.message);
  const closer = m ? (m[1] ?? m[2] ?? m[3] ?? m[4]) : undefined;
  const balanced = bracketsBalanced(text);
  if (closer !== undefined && !balanced) {
    // Before the reported place, at the end of the line before it, or at the end of the file.
    const lineStart = text.lastIndexOf('\n', at - 1);
    const previousLineEnd = lineStart <= 0 ? -1 : lineStart;
    const candidates = [at, previousLineEnd, text.trimEnd().length].filter((i) => i >= 0);
    for (const i of candidates) {
      const content = text.slice(0, i) + closer + text.slice(i);
      if (bracketsBalanced(content)) return { path: error.file, content, summary: `Added the missing “${closer}” in ${error.file} (${where}).` };
    }
  }
  if (STRAY.test(error.message)) {
    // A stray character at the reported place (1-based column, or a 0-based one).
    for (const i of [at, at - 1]) {
      const c = text[i];
      if (c === undefined || /[\w$\s'"`]/.test(c)) continue;
      const content = text.slice(0, i) + text.slice(i + 1);
      const bracket = OPENERS.has(c) || c in CLOSERS;
      if (bracket ? !balanced && bracketsBalanced(content) : /Invalid character|Unexpected character/i.test(error.message)) {
        return { path: error.file, content, summary: `Removed the stray “${c}” in ${error.file} (${where}).` };
      }
    }
  }
  return null;
}

/** A repair of one error in the given files, or null when it is not a mechanical one. */
export function repairError(error: CodeError, files: ReadonlyMap<string, string>): Repair | null {
  const text = files.get(error.file);
  if (text === undefined) return null;
  return repairUnknownName(error, text, files) ?? repairBrackets(error, text);
}
