// Kiln's launcher for a sandbox's Vite, run by LocalSandboxHost inside bubblewrap (copied into the
// shared dependency cache so it is visible there):
//
//   node vite-launcher.mjs dev <projectRoot> <fd>     the dev server behind the live preview, serving
//                                                     on the listening Unix socket Kiln passed as <fd>
//   node vite-launcher.mjs build <projectRoot>        a build for find-errors (when no dev server
//                                                     runs: a running one answers find-errors
//                                                     itself, warm, on stdin: warm-checks.mjs)
//   node vite-launcher.mjs release <projectRoot>      the production build a release is copied
//                                                     from, into .kiln-build/release (its own
//                                                     folder: a find-errors build never empties
//                                                     it meanwhile), with Vite's log
//   node vite-launcher.mjs warm <projectRoot> <fd> <nodeModules> <package>...
//                                                     a dev server started ahead of its project:
//                                                     imports Vite and the named plugins from
//                                                     <nodeModules> (and has find-errors' type-check
//                                                     thread check the starter's files, seeded in
//                                                     <projectRoot>), then waits for a `go` line on
//                                                     stdin (the project's files are in place) and
//                                                     goes on as `dev`
//
// Vite is imported from the project's own node_modules. The project's vite.config is loaded with
// Vite's bundling loader (its default, the fastest) when node_modules/.vite-temp, where that loader
// writes, can be written (Kiln's trees link it to the sandbox's private /tmp), else with Vite's
// module runner, which writes nothing. Either way a last plugin puts back what Kiln relies on: Vite's server on Kiln's socket (HMR on the same
// server), where Vite keeps its cache and build output, which files it may serve, and error overlay
// messages with project-relative paths (no server folder reaches the previewed app). The sandbox
// has no network: Vite never listens on a port of its own.
import { accessSync, constants, existsSync, mkdirSync, realpathSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { devServerVouches, serveChecks, TypeCheckThread } from './warm-checks.mjs';

/** printed on stdout once the dev server listens */
const READY_MARKER = 'KILN_DEV_SERVER_READY';
/** printed on stdout (one JSON line) when the build fails */
const BUILD_ERRORS_MARKER = 'KILN_BUILD_ERRORS';
/** Kiln's temporary build folder (TEMP_BUILD_DIR in the domain), hidden from the tree and git. */
const TEMP_BUILD_DIR = '.kiln-build';
const CONFIG_FILES = ['vite.config.js', 'vite.config.mjs', 'vite.config.ts', 'vite.config.cjs', 'vite.config.mts', 'vite.config.cts'];

const [mode, rootArg, fdArg, ...warmArgs] = process.argv.slice(2);
// What is known of the project: read when the launcher starts, or (warm) once its files are in place.
let root;
let cacheDir;
let outDir;
let releaseDir;
let configFile;
// The shared, read-only dependency tree the project's node_modules links to.
let nodeModules;

function readProject() {
  root = realpathSync(path.resolve(rootArg ?? '.'));
  cacheDir = path.join(root, TEMP_BUILD_DIR, 'vite');
  outDir = path.join(root, TEMP_BUILD_DIR, 'dist');
  releaseDir = path.join(root, TEMP_BUILD_DIR, 'release');
  configFile = CONFIG_FILES.map((name) => path.join(root, name)).find((file) => existsSync(file)) ?? false;
  nodeModules = existsSync(path.join(root, 'node_modules')) ? realpathSync(path.join(root, 'node_modules')) : null;
}

/** Where each of Kiln's dependency trees links its `.vite-temp` (VITE_TEMP_TARGET in dependency-cache.ts). */
const VITE_TEMP_TARGET = '/tmp/kiln-vite-temp';

/** 'bundle' when its temporary file has somewhere to go: Vite throws on a read-only node_modules. */
function configLoader() {
  if (configFile === false) return 'bundle';
  try {
    mkdirSync(VITE_TEMP_TARGET, { recursive: true, mode: 0o700 });
  } catch {
    // not in a sandbox (a host /tmp we may not write): the check below decides
  }
  if (!existsSync(path.join(root, 'node_modules'))) return 'bundle'; // written beside the config
  try {
    accessSync(path.join(root, 'node_modules', '.vite-temp'), constants.W_OK);
    return 'bundle';
  } catch {
    return 'runner';
  }
}

const stripAnsi = (text) => String(text).replace(/\u001b\[[0-9;]*[A-Za-z]/g, '');

async function loadVite() {
  const require = createRequire(path.join(root, 'package.json'));
  return import(pathToFileURL(require.resolve('vite')).href);
}

const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * `text` with the server's folders taken out: `<rootDir>/src/App.tsx` → `src/App.tsx`, the root
 * itself → `.`, the shared dependency tree `<modulesDir>/react/…` → `node_modules/react/…`. What
 * the error overlay shows runs in the previewed app: it must not tell where projects live.
 */
export function projectRelative(text, rootDir, modulesDir = null) {
  if (typeof text !== 'string' || !rootDir) return text;
  let out = text;
  // Rolldown names a module relative to the project: the shared tree outside it is then
  // `../../<cache>/deps-…/node_modules/…` (from any folder in the project the same path after the `../`s).
  const up = modulesDir ? path.relative(rootDir, modulesDir) : '';
  const below = up.replace(/^(?:\.\.\/)+/, '');
  if (up.startsWith('../') && below !== '') {
    out = out.replace(new RegExp(`(?:\\.\\./)+${escapeRegExp(below)}(?![\\w-]|\\.[\\w-])`, 'g'), 'node_modules');
  }
  for (const [dir, name] of [[modulesDir, 'node_modules'], [rootDir, '.']]) {
    if (!dir) continue;
    out = out.replace(new RegExp(`(?:file://)?${escapeRegExp(dir)}/`, 'g'), name === '.' ? '' : `${name}/`);
    out = out.replace(new RegExp(`(?:file://)?${escapeRegExp(dir)}(?![\\w-]|\\.[\\w-])`, 'g'), name);
  }
  return out;
}

/** Vite's error payload (prepareError: message, stack, id, frame, loc.file) with project-relative paths. */
export function relativeError(err, rootDir, modulesDir = null) {
  if (err === null || typeof err !== 'object') return err;
  const rel = (value) => projectRelative(value, rootDir, modulesDir);
  const loc = err.loc !== null && typeof err.loc === 'object' ? { ...err.loc, file: rel(err.loc.file) } : err.loc;
  return { ...err, message: rel(err.message), stack: rel(err.stack), id: rel(err.id), frame: rel(err.frame), loc };
}

/**
 * Keeps server paths out of the error overlay: errors sent over HMR, and the error page Vite
 * answers a failed request with (status 500, the overlay inlined), are made project-relative.
 */
export function hideServerPaths(server, rootDir, modulesDir = null) {
  const channels = new Set([server.environments?.client?.hot, server.ws].filter((c) => c && typeof c.send === 'function'));
  for (const channel of channels) {
    const send = channel.send.bind(channel);
    channel.send = (payload, ...rest) =>
      send(payload !== null && typeof payload === 'object' && payload.type === 'error' ? { ...payload, err: relativeError(payload.err, rootDir, modulesDir) } : payload, ...rest);
  }
  server.middlewares.use((_req, res, next) => {
    const end = res.end;
    res.end = function (chunk, ...rest) {
      return end.call(this, res.statusCode >= 500 && typeof chunk === 'string' ? projectRelative(chunk, rootDir, modulesDir) : chunk, ...rest);
    };
    next();
  });
}

/** Runs after the project's own plugins' config hooks: what it sets cannot be moved elsewhere. */
function kilnLock(serve, buildDir = outDir) {
  return {
    name: 'kiln:lock',
    enforce: 'post',
    configureServer(server) {
      hideServerPaths(server, root, nodeModules);
    },
    config(config) {
      config.root = root;
      // Never Vite's default node_modules/.vite: the shared node_modules is read-only.
      config.cacheDir = cacheDir;
      config.build ??= {};
      config.build.outDir = buildDir;
      config.build.emptyOutDir = true;
      if (!serve) return;
      const server = (config.server ??= {});
      // Vite's own http server, but listening on Kiln's socket (see dev()): no host, port or TLS
      // of the project's choosing matters (there is no network to listen on anyway).
      server.middlewareMode = false;
      delete server.host;
      delete server.port;
      delete server.https;
      server.open = false;
      // Reached only through the API's preview proxy, which forwards only the project's own preview host.
      server.allowedHosts = true;
      // HMR: on the same server (the page's own origin, through the proxy); no websocket host,
      // port, client port or path the project may have set survives.
      const overlay = typeof server.hmr === 'object' && server.hmr !== null ? server.hmr.overlay : undefined;
      server.hmr = server.hmr === false ? false : { overlay: overlay ?? true };
      server.ws = server.ws === false ? false : {};
      // Serve the project and its dependencies, nothing else.
      server.fs = { ...(server.fs ?? {}), strict: true, allow: nodeModules === null ? [root] : [root, nodeModules] };
    },
  };
}

function common(serve, buildDir = outDir) {
  return { root, configFile, configLoader: configLoader(), cacheDir, clearScreen: false, plugins: [kilnLock(serve, buildDir)] };
}

/**
 * Imports Vite and the plugins a new project's config will ask for (the same files, so Node's
 * module cache answers the config's imports), then waits for the host's `go`. End of input first
 * means the host is gone.
 */
async function warm() {
  const [treeArg, ...packages] = warmArgs;
  const require = createRequire(path.join(path.resolve(treeArg), 'package.json'));
  for (const name of packages) {
    try {
      await import(pathToFileURL(require.resolve(name)).href);
    } catch {
      // not in this tree: the project's config will say what is missing
    }
  }
  // find-errors' type-check thread makes the project's first program meanwhile (on its own
  // thread), from the starter's files Kiln seeded the folder with: the first check of the new
  // project then starts from it, as every later one starts from the one before.
  typeThread = new TypeCheckThread();
  typeThread.check(realpathSync(path.resolve(rootArg)), false).catch(() => undefined);
  await new Promise((resolve) => {
    let input = '';
    const onData = (chunk) => {
      input += chunk;
      if (!input.includes('\n')) return;
      process.stdin.off('data', onData);
      process.stdin.pause();
      resolve();
    };
    process.stdin.setEncoding('utf8');
    process.stdin.on('data', onData);
    process.stdin.once('end', () => process.exit(0));
  });
  readProject();
  await dev();
}

async function dev() {
  // A listening socket Kiln handed over (its fd), or, in a container where nothing can be handed
  // over, the path of a socket to make in the folder Kiln mounted for it.
  const fd = Number(fdArg);
  const socketPath = typeof fdArg === 'string' && fdArg.startsWith('/') ? fdArg : null;
  if (socketPath === null && (!Number.isInteger(fd) || fd < 3)) throw new Error(`Bad listening socket: ${fdArg}`);
  if (socketPath !== null) rmSync(socketPath, { force: true });
  // find-errors, warm: the type-checker (on its own thread, making its first program while Vite
  // starts here) and Vite stay loaded between checks. Kiln asks only once the server is ready.
  let server = null;
  const checks = serveChecks(process.stdin, process.stdout, { root, build: warmBuild, vouchFiles: (paths) => devServerVouches(server, root, paths), typeThread });
  checks.warmUp();
  const { createServer } = await loadVite();
  server = await createServer(common(true));
  // A server listening on an inherited Unix socket has no address object; Vite reads `.port` of it.
  const address = server.httpServer.address.bind(server.httpServer);
  server.httpServer.address = () => {
    const real = address();
    return real !== null && typeof real === 'object' ? real : { address: 'localhost', family: 'IPv4', port: 0 };
  };
  // Vite's http server (its error pages, HMR websocket on the same server), started on the socket
  // Kiln handed over instead of a port: Vite wraps listen() to start its optimizer first.
  await new Promise((resolve, reject) => {
    server.httpServer.once('error', reject);
    server.httpServer.listen(socketPath === null ? { fd } : { path: socketPath }, resolve);
  });
  process.stdout.write(`${READY_MARKER} socket\n`);
  // The host keeps our stdin open and never writes to it: end of input means the host process is
  // gone (even killed outright, and even when bubblewrap outlived it), so this server goes too.
  process.stdin.on('end', () => process.exit(0));
  process.stdin.on('error', () => process.exit(0));
  process.stdin.resume();
  announcedChanges(process.stdin, server);
  const stop = () => {
    server.close().finally(() => process.exit(0));
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

/**
 * What Kiln changed from outside, passed on to Vite's watcher as if it had seen it (in a container
 * under gVisor the watcher sees only changes made inside): `KILN_FILES_CHANGED <base64url JSON of
 * { change, unlink }>` with project-relative paths, or `*` (a restore): every module is invalidated
 * and the page reloaded. Paths outside the project are ignored.
 */
function announcedChanges(input, server) {
  let pending = '';
  input.on('data', (chunk) => {
    pending += String(chunk);
    let nl;
    while ((nl = pending.indexOf('\n')) !== -1) {
      const line = pending.slice(0, nl).trim();
      pending = pending.slice(nl + 1);
      if (!line.startsWith('KILN_FILES_CHANGED ')) continue;
      const arg = line.slice('KILN_FILES_CHANGED '.length);
      if (arg === '*') {
        server.moduleGraph.invalidateAll();
        server.ws.send({ type: 'full-reload' });
        continue;
      }
      let changed;
      try {
        changed = JSON.parse(Buffer.from(arg, 'base64url').toString('utf8'));
      } catch {
        continue;
      }
      for (const [event, list] of [['change', changed?.change], ['unlink', changed?.unlink]]) {
        for (const rel of Array.isArray(list) ? list : []) {
          const file = path.resolve(root, String(rel));
          if (file.startsWith(`${root}${path.sep}`)) server.watcher.emit(event, file);
        }
      }
    }
    if (pending.length > 65536) pending = '';
  });
}

/** Rolldown reports { message, id?, loc?: { file?, line, column (0-based) } }, sometimes in `errors`. */
function describeBuildError(e) {
  const list = Array.isArray(e?.errors) && e.errors.length > 0 ? e.errors : [e];
  return list.map((x) => ({
    message: stripAnsi(x?.message ?? x),
    id: typeof x?.id === 'string' ? x.id : undefined,
    loc: x?.loc && typeof x.loc === 'object' ? { file: x.loc.file, line: x.loc.line, column: x.loc.column } : undefined,
    plugin: typeof x?.plugin === 'string' ? x.plugin : undefined,
  }));
}

/** find-errors' type-check thread when warm mode started it ahead, else null. */
let typeThread = null;

/** A build in the dev server's process, for find-errors: { ok: true } or { errors } with project-relative paths. */
async function warmBuild() {
  const vite = await loadVite();
  try {
    await vite.build({ ...common(false), logLevel: 'silent', build: { outDir, emptyOutDir: true } });
    return { ok: true };
  } catch (e) {
    // The answer is one line Kiln reads (at most 64 KiB): the first errors, their messages cut.
    const errors = describeBuildError(e).slice(0, 20).map((error) => relativeError({ ...error, message: error.message.slice(0, 2000) }, root, nodeModules));
    return { errors };
  }
}

async function build() {
  const vite = await loadVite();
  try {
    await vite.build({ ...common(false), logLevel: 'silent', build: { outDir, emptyOutDir: true } });
  } catch (e) {
    process.stdout.write(`${BUILD_ERRORS_MARKER} ${JSON.stringify(describeBuildError(e))}\n`);
    process.stderr.write(`${stripAnsi(e?.message ?? e)}\n`);
    process.exitCode = 1;
  }
}

/** The release build: Vite's own log (file sizes) on stdout, its errors on stderr, server paths taken out. */
async function release() {
  const vite = await loadVite();
  const say = (stream) => (msg) => {
    stream.write(`${projectRelative(stripAnsi(msg), root, nodeModules)}\n`);
  };
  const logger = vite.createLogger('info', { allowClearScreen: false });
  logger.info = say(process.stdout);
  logger.warn = say(process.stderr);
  logger.warnOnce = say(process.stderr);
  logger.error = say(process.stderr);
  try {
    await vite.build({ ...common(false, releaseDir), customLogger: logger, logLevel: 'info', build: { outDir: releaseDir, emptyOutDir: true } });
  } catch (e) {
    say(process.stderr)(e?.message ?? String(e));
    process.exitCode = 1;
  }
}

async function main() {
  try {
    if (mode === 'warm') await warm();
    else if (mode === 'dev' || mode === 'build' || mode === 'release') {
      readProject();
      await (mode === 'dev' ? dev() : mode === 'build' ? build() : release());
    }
    else throw new Error(`Unknown mode: ${mode}`);
  } catch (e) {
    process.stderr.write(`${stripAnsi(e?.stack ?? e?.message ?? e)}\n`);
    process.exit(1);
  }
}

// Run as a program (node vite-launcher.mjs …); imported (its spec), it only exports its helpers.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href) await main();
