// Kiln's warm checks: find-errors answered by a project's running dev server (vite-launcher.mjs)
// instead of two new processes per check. Inside bubblewrap, in the dev server's process:
//
//   stdin   kiln-check <id> build
//           kiln-check <id> vouch <base64url JSON: the changed files that are not TypeScript>
//   stdout  KILN_CHECK_RESULT <id> <JSON>
//
// The type-check runs on a thread of its own and keeps one TypeScript program per project, each
// made from the one before (a SemanticDiagnosticsBuilderProgram): parsed files are reused while
// their text is the same (files of the shared, read-only dependency trees are never read twice),
// and only files a change can affect are checked again. Its output is
// `tsc --noEmit --pretty false -p .`'s, diagnostic for diagnostic. Meanwhile this thread runs the
// Vite build (warm: Vite and the plugins stay loaded) or, with `vouch` (only TypeScript modules,
// stylesheets and index.html changed since a build that passed: Kiln's LocalErrorScans decides),
// lets the dev server transform the changed stylesheets and index.html afresh instead; the build
// then runs only for an import the type-checker could not vouch for or a file the dev server
// could not. What the project's own code does in this process can change the answers only for
// itself.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export const CHECK_REQUEST = 'kiln-check';
export const CHECK_RESULT_MARKER = 'KILN_CHECK_RESULT';
/** workerData.role of the type-check thread (this module run as a worker). */
const TYPE_CHECK_THREAD = 'kiln-type-check';
/** Enough for hundreds of diagnostics; a longer output is cut at a line (the host reads lines of 64 KiB at most). */
const MAX_OUTPUT_CHARS = 48_000;

/** TypeScript as `dir`'s package.json would import it (the project's own, or a dependency tree's). */
export async function importTypeScript(dir) {
  const require = createRequire(path.join(dir, 'package.json'));
  const mod = await import(pathToFileURL(require.resolve('typescript')).href);
  return mod.default ?? mod;
}

/** Parsed files of the shared dependency trees and TypeScript's libs, by real path: never changed in place. */
const sharedFiles = new Map();

function sharedSourceFile(ts, fileName, language, read) {
  // Parsed for one target and module format: another project's options may need another parse.
  const key = `${fileName}|${typeof language === 'object' ? `${language.languageVersion}:${language.impliedNodeFormat}` : language}`;
  const known = sharedFiles.get(key);
  if (known !== undefined && known.ts === ts) return known.sourceFile;
  const text = read();
  if (text === undefined) return undefined;
  const sourceFile = ts.createSourceFile(fileName, text, language, false);
  sourceFile.version = `shared:${sharedFiles.size}`;
  sharedFiles.set(key, { ts, sourceFile });
  return sourceFile;
}

/** `tsc --noEmit -p .` over and over, each time from the previous program. */
export class WarmTypeCheck {
  constructor(ts, root) {
    this.ts = ts;
    this.root = root;
    this.fs = { ...ts.sys, getCurrentDirectory: () => root };
    this.program = undefined;
    this.optionsKey = null;
    /** The project's own files: fileName → { text, sourceFile }. */
    this.ownFiles = new Map();
    this.versions = 0;
  }

  /**
   * Whether `fileName` may change (read again each check) or lies in a dependency tree, shared and
   * read-only (TypeScript's libs too), parsed once.
   */
  isOwn(fileName) {
    return !fileName.split(path.sep).includes('node_modules');
  }

  sourceFile(fileName, language) {
    const ts = this.ts;
    if (!this.isOwn(fileName)) return sharedSourceFile(ts, fileName, language, () => this.fs.readFile(fileName));
    const text = this.fs.readFile(fileName);
    if (text === undefined) return undefined;
    const known = this.ownFiles.get(fileName);
    if (known !== undefined && known.text === text) return known.sourceFile;
    const sourceFile = ts.createSourceFile(fileName, text, language, false);
    sourceFile.version = String(++this.versions);
    this.ownFiles.set(fileName, { text, sourceFile });
    return sourceFile;
  }

  /**
   * { output, errorCount } as tsc would report them (with the options and host used, for
   * unvouchedImports), or { fallback } when this check cannot stand for tsc's (no tsconfig.json,
   * an unreadable one, project references).
   */
  check() {
    const ts = this.ts;
    const configPath = path.join(this.root, 'tsconfig.json');
    if (!this.fs.fileExists(configPath)) return { fallback: 'no tsconfig.json' };
    let unrecoverable = null;
    const configHost = { ...this.fs, onUnRecoverableConfigFileDiagnostic: (d) => (unrecoverable = d) };
    const parsed = ts.getParsedCommandLineOfConfigFile(configPath, { noEmit: true }, configHost);
    if (parsed === undefined || unrecoverable !== null) return { fallback: 'tsconfig.json cannot be read' };
    if ((parsed.projectReferences?.length ?? 0) > 0) return { fallback: 'project references' };
    const options = parsed.options;
    const key = JSON.stringify(options);
    if (key !== this.optionsKey) {
      // Other options may parse the same text differently: start again.
      this.program = undefined;
      this.ownFiles.clear();
      this.optionsKey = key;
    }
    const host = ts.createCompilerHost(options);
    const { fileExists, readFile, directoryExists, getDirectories, realpath, getCurrentDirectory } = this.fs;
    Object.assign(host, { fileExists, readFile, directoryExists, getDirectories, realpath, getCurrentDirectory });
    host.getSourceFile = (fileName, language) => this.sourceFile(fileName, language);
    const configDiagnostics = ts.getConfigFileParsingDiagnostics(parsed);
    this.program = ts.createSemanticDiagnosticsBuilderProgram(parsed.fileNames, options, host, this.program, configDiagnostics, parsed.projectReferences);
    // In the order tsc reports them, each kind only when the one before found nothing.
    const program = this.program;
    const all = [...program.getConfigFileParsingDiagnostics()];
    const base = all.length;
    all.push(...program.getSyntacticDiagnostics());
    if (all.length === base) {
      all.push(...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics());
      if (all.length === base) all.push(...program.getSemanticDiagnostics());
    }
    const diagnostics = ts.sortAndDeduplicateDiagnostics(all);
    const format = { getCanonicalFileName: (f) => f, getCurrentDirectory: () => this.root, getNewLine: () => '\n' };
    const output = cutAtLine(ts.formatDiagnostics(diagnostics, format), MAX_OUTPUT_CHARS);
    const errorCount = diagnostics.filter((d) => d.category === ts.DiagnosticCategory.Error).length;
    return { output, errorCount, options, host };
  }

  /**
   * Imports of the project's code that only the build would check: not a module the type-checker
   * resolved to a file that runs, and not an existing file or installed package. Empty when the
   * type-check vouches for every import.
   */
  unvouchedImports(options, host) {
    const ts = this.ts;
    const found = [];
    const cache = ts.createModuleResolutionCache(this.root, (f) => f, options);
    for (const sourceFile of this.program.getProgram().getSourceFiles()) {
      const file = sourceFile.fileName;
      if (!this.isOwn(file) || file.endsWith('.d.ts')) continue;
      for (const { fileName: specifier } of ts.preProcessFile(sourceFile.text, true, true).importedFiles) {
        if (!this.importVouched(specifier, file, options, host, cache)) found.push(`${path.relative(this.root, file)}: ${specifier}`);
      }
    }
    return found;
  }

  importVouched(specifier, fromFile, options, host, cache) {
    const ts = this.ts;
    const bare = specifier.replace(/[?#].*$/, '');
    if (bare === '') return false;
    if (bare === specifier) {
      const resolved = ts.resolveModuleName(specifier, fromFile, options, host, cache).resolvedModule;
      if (resolved !== undefined) {
        // A package the type-checker knows only from its types (@types/x) must be installed too.
        if (resolved.isExternalLibraryImport) return this.packageInstalled(bare);
        // The project's own declaration file stands for a module the build may not find.
        return !resolved.resolvedFileName.endsWith('.d.ts');
      }
    }
    // An asset Vite loads ('./App.css', './logo.svg?url'): the file must be there.
    if (bare.startsWith('./') || bare.startsWith('../')) return existsSync(path.resolve(path.dirname(fromFile), bare));
    if (bare.startsWith('/')) return existsSync(path.join(this.root, bare));
    // A package's asset ('some-package/style.css').
    if (/^(@[\w.-]+\/)?[\w.-]+(\/|$)/.test(bare)) return existsSync(path.join(this.root, 'node_modules', bare));
    // 'virtual:…' and the like: only the build knows.
    return false;
  }

  packageInstalled(specifier) {
    const parts = specifier.split('/');
    const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
    return existsSync(path.join(this.root, 'node_modules', name, 'package.json'));
  }
}

/** What the type-check thread does with one message (see TypeCheckThread). */
let threadTypeCheck = null;
async function onTypeCheckMessage(message) {
  const ts = await importTypeScript(message.root);
  if (threadTypeCheck?.ts !== ts || threadTypeCheck.root !== message.root) threadTypeCheck = new WarmTypeCheck(ts, message.root);
  const typed = threadTypeCheck.check();
  if ('fallback' in typed) return { fallback: typed.fallback };
  const unvouched = message.vouch && typed.errorCount === 0 ? threadTypeCheck.unvouchedImports(typed.options, typed.host) : [];
  return { output: typed.output, errorCount: typed.errorCount, unvouched };
}

if (!isMainThread && workerData?.role === TYPE_CHECK_THREAD) {
  let queue = Promise.resolve();
  parentPort.on('message', ({ id, message }) => {
    queue = queue
      .then(() => onTypeCheckMessage(message))
      .then(
        (result) => parentPort.postMessage({ id, result }),
        (e) => parentPort.postMessage({ id, error: String(e?.stack ?? e) }),
      );
  });
}

/**
 * The type-check on a thread of its own (this module, in a worker): it runs on the other core
 * while this thread serves the preview and runs Vite (a build, stylesheet transforms).
 */
export class TypeCheckThread {
  constructor() {
    this.worker = new Worker(new URL(import.meta.url), { workerData: { role: TYPE_CHECK_THREAD } });
    this.worker.unref();
    this.waiting = new Map();
    this.ids = 0;
    this.broken = null;
    this.worker.on('message', ({ id, result, error }) => {
      const waiter = this.waiting.get(id);
      this.waiting.delete(id);
      if (error !== undefined) waiter?.reject(new Error(error));
      else waiter?.resolve(result);
    });
    const fail = (e) => {
      this.broken = e instanceof Error ? e : new Error(`The type-check thread stopped (${e})`);
      for (const waiter of this.waiting.values()) waiter.reject(this.broken);
      this.waiting.clear();
    };
    this.worker.on('error', fail);
    this.worker.on('exit', fail);
  }

  send(message) {
    if (this.broken !== null) return Promise.reject(this.broken);
    const id = ++this.ids;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.worker.postMessage({ id, message });
    });
  }

  /** { fallback } or { output, errorCount, unvouched } (unvouched imports only when `vouch`). */
  check(root, vouch) {
    return this.send({ root, vouch });
  }
}

/** The changed files of a request: base64url of a JSON array of project-relative paths. */
function changedFiles(encoded) {
  try {
    const list = encoded === '' ? [] : JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8'));
    return Array.isArray(list) ? list.filter((p) => typeof p === 'string').slice(0, 1000) : [];
  } catch {
    return [];
  }
}

/**
 * Which of the changed `paths` the running dev `server` cannot vouch for: a stylesheet under src/
 * is vouched for when the dev server transforms it afresh without an error (Tailwind and PostCSS
 * ran), index.html when it transforms and every local script it loads exists, with no inline
 * module script (only the build bundles one). TypeScript under src/ is the type-check's.
 */
export async function devServerVouches(server, root, paths) {
  const unvouched = [];
  for (const p of paths) {
    if (/^src\/.+\.(ts|tsx|mts|cts)$/.test(p)) continue;
    try {
      if (/^src\/.+\.css$/.test(p) && existsSync(path.join(root, p))) await transformAfresh(server, path.join(root, p), `/${p}`);
      else if (p === 'index.html') await checkIndexHtml(server, root);
      else throw new Error('only the build checks it');
    } catch {
      unvouched.push(p);
    }
  }
  return unvouched;
}

async function transformAfresh(server, file, url) {
  const environment = server.environments?.client;
  const graph = environment?.moduleGraph ?? server.moduleGraph;
  for (const mod of graph.getModulesByFile(file) ?? []) graph.invalidateModule(mod);
  const result = await (environment ?? server).transformRequest(url);
  if (result === null || result === undefined) throw new Error(`${url} was not transformed`);
}

async function checkIndexHtml(server, root) {
  const html = readFileSync(path.join(root, 'index.html'), 'utf8');
  await server.transformIndexHtml('/', html);
  for (const [tag] of html.matchAll(/<script\b[^>]*>/gi)) {
    const src = /\bsrc\s*=\s*["']([^"']+)["']/i.exec(tag)?.[1];
    if (src === undefined) {
      if (/\btype\s*=\s*["']?module/i.test(tag)) throw new Error('an inline module script');
      continue;
    }
    if (/^(https?:)?\/\//i.test(src)) continue;
    const local = src.replace(/[?#].*$/, '');
    if (!existsSync(path.join(root, local.startsWith('/') ? local.slice(1) : local))) throw new Error(`${src} is missing`);
  }
}

function cutAtLine(text, max) {
  if (text.length <= max) return text;
  const cut = text.lastIndexOf('\n', max);
  return text.slice(0, cut > 0 ? cut + 1 : max);
}

/**
 * One check: the type-check, then (when it finds no errors) the build, unless `mode` is 'vouch'
 * and every import and every `changed` file that is not TypeScript (a stylesheet, index.html) is
 * vouched for. `build()` answers { ok: true } or { errors }; `vouchFiles(paths)` the paths the dev
 * server could not vouch for. The type-check runs on its thread while the rest runs on this one.
 */
export async function runCheck({ typeThread, root, build, vouchFiles }, mode, changed = []) {
  const typing = typeThread.check(root, mode === 'vouch');
  // A build that must run anyway starts at once; its result counts only when the type-check is clean.
  const building = mode === 'build' ? build() : null;
  const vouching = mode === 'vouch' ? vouchFiles(changed) : null;
  const settled = () => Promise.allSettled([building, vouching]); // never two builds into one folder
  let typed;
  try {
    typed = await typing;
  } finally {
    if (typed === undefined) await settled();
  }
  if ('fallback' in typed) {
    await settled();
    return { typeCheck: { fallback: typed.fallback }, build: null, unvouched: [] };
  }
  const typeCheck = { output: typed.output, errorCount: typed.errorCount };
  if (typed.errorCount > 0) {
    await settled();
    return { typeCheck, build: null, unvouched: [] };
  }
  if (mode === 'build') return { typeCheck, build: await building, unvouched: [] };
  const unvouched = [...typed.unvouched, ...(await vouching)];
  return { typeCheck, build: unvouched.length === 0 ? null : await build(), unvouched };
}

/**
 * Answers check requests on `input`, one at a time, on `output`, with runCheck for the project at
 * `root` on a type-check thread of its own (`typeThread`, when one was started ahead). `warmUp()` makes its first program ahead (the
 * type-check only: a build now could meet a cold one Kiln runs meanwhile in the same folder); a
 * check that comes meanwhile waits for it on the thread, which is sooner than starting afresh.
 */
export function serveChecks(input, output, { root, build, vouchFiles, typeThread: given = null }) {
  let chain = Promise.resolve();
  let typeThread = given;
  const thread = () => (typeThread ??= new TypeCheckThread());
  const answer = (id, mode, changed) => {
    chain = chain
      .then(() => runCheck({ typeThread: thread(), root, build, vouchFiles }, mode, changed))
      .catch((e) => ({ error: String(e?.message ?? e).slice(0, 500) }))
      .then((result) => output.write(`${CHECK_RESULT_MARKER} ${id} ${JSON.stringify(result)}\n`));
  };
  let pending = '';
  input.setEncoding('utf8');
  input.on('data', (chunk) => {
    pending += chunk;
    let nl;
    while ((nl = pending.indexOf('\n')) !== -1) {
      const [word, id, mode, files = ''] = pending.slice(0, nl).trim().split(' ');
      pending = pending.slice(nl + 1);
      if (word === CHECK_REQUEST && /^[0-9a-f]{8,64}$/.test(id ?? '') && (mode === 'build' || mode === 'vouch')) answer(id, mode, changedFiles(files));
    }
    if (pending.length > 4096) pending = '';
  });
  return {
    warmUp: () => {
      thread().check(root, false).catch(() => undefined);
    },
  };
}
