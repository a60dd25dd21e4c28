// The escape suite's attacker: what a project's own code tries against its sandbox. Copied into an
// attacker project as `.attack/attacks.mjs` and run from the three places project code runs:
//
//   node .attack/attacks.mjs run-command      a shell line given to run-command
//   import('./.attack/attacks.mjs')           the project's vite.config.ts, when the dev server or
//                                             find-errors' build loads it (runAttacks('dev-server'|'build'))
//
// It reads its targets from `.attack/targets.json` (written by the test) and only observes: it
// writes what it saw into `.attack/result-<source>-<attack>.json` and, at the end, everything into
// `.attack/done-<source>.json`. The test decides what leaked. Every path it writes is relative to
// the working directory (the project): an unmount below may detach the project's mount from the
// absolute path, but never from the working directory.
//
// Helper modes (children of the attacks): fill <bytes> <dir> | daemonize <file> <marker> |
// heartbeat <file> <marker>.
import { execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';

const DIR = '.attack';
const SELF = `${DIR}/attacks.mjs`;
const ATTACK_TIMEOUT_MS = 60_000;
const MiB = 1024 * 1024;

const errText = (e) => (e instanceof Error ? `${e.code ?? e.name}: ${e.message}` : String(e)).slice(0, 500);
const sha256 = (data) => createHash('sha256').update(data).digest('hex');
const quote = (s) => `'${String(s).replace(/'/g, `'\\''`)}'`;

function tryRead(file) {
  try {
    const data = fs.readFileSync(file);
    return { ok: true, sha256: sha256(data), bytes: data.length };
  } catch (e) {
    return { ok: false, error: errText(e) };
  }
}

function tryList(dir) {
  try {
    return { ok: true, names: fs.readdirSync(dir).slice(0, 50) };
  } catch (e) {
    return { ok: false, error: errText(e) };
  }
}

function tryWrite(file, text) {
  try {
    fs.writeFileSync(file, text);
    return { ok: true };
  } catch (e) {
    return { ok: false, error: errText(e) };
  }
}

/** A program's exit, output (the last `keep` characters) and spawn error; never rejects. */
function run(file, args, timeoutMs = 20_000, keep = 4000) {
  return new Promise((resolve) => {
    execFile(file, args, { timeout: timeoutMs, maxBuffer: 4 * MiB, encoding: 'utf8' }, (error, stdout, stderr) => {
      resolve({
        code: error ? (typeof error.code === 'number' ? error.code : null) : 0,
        signal: error?.signal ?? null,
        error: error && typeof error.code !== 'number' ? errText(error) : null,
        stdout: String(stdout).slice(-keep),
        stderr: String(stderr).slice(-1000),
      });
    });
  });
}

/** Whether a TCP or Unix-socket connection is accepted. */
function connect(options, timeoutMs = 2000) {
  return new Promise((resolve) => {
    const socket = net.connect(options);
    const done = (result) => {
      socket.destroy();
      resolve(result);
    };
    socket.setTimeout(timeoutMs, () => done({ connected: false, error: 'timeout' }));
    socket.once('connect', () => done({ connected: true }));
    socket.once('error', (e) => done({ connected: false, error: errText(e) }));
  });
}

/** GET through TCP ({ port }) or a Unix socket ({ socketPath }), as a preview request would. */
function httpGet(target, urlPath, timeoutMs = 5000) {
  return new Promise((resolve) => {
    const where = typeof target.socketPath === 'string' ? { socketPath: target.socketPath } : { host: '127.0.0.1', port: target.port };
    const request = http.get({ ...where, path: urlPath, timeout: timeoutMs }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk) => (body += chunk));
      response.on('end', () => resolve({ connected: true, status: response.statusCode, body: body.slice(0, 20_000) }));
    });
    request.on('timeout', () => request.destroy(new Error('timeout')));
    request.on('error', (e) => resolve({ connected: false, error: errText(e) }));
  });
}

function withTimeout(promise, ms) {
  let timer;
  return Promise.race([promise, new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`attack took over ${ms} ms`)), ms)))]).finally(() =>
    clearTimeout(timer),
  );
}

/** tmpfs mount points this process sees: the masks. */
function tmpfsMountPoints() {
  try {
    return fs
      .readFileSync('/proc/self/mountinfo', 'utf8')
      .split('\n')
      .map((line) => {
        const [before, after = ''] = line.split(' - ');
        const point = (before.split(' ')[4] ?? '').replace(/\\(\d{3})/g, (_, o) => String.fromCharCode(parseInt(o, 8)));
        return { point, type: after.split(' ')[0] };
      })
      // Not /dev, /proc (the sandbox's own), nor /sys and /mnt (the machine's, not masks).
      .filter(({ point, type }) => type === 'tmpfs' && point !== '' && point !== '/' && !/^\/(dev|proc|sys|mnt)(\/|$)/.test(point))
      .map(({ point }) => point);
  } catch {
    return [];
  }
}

const attacks = {
  /** uid and capabilities: with CAP_SYS_ADMIN any binary the project brings can mount. */
  capabilities: () => {
    const status = tryReadText('/proc/self/status');
    const field = (name) => new RegExp(`^${name}:\\s*(.*)$`, 'm').exec(status)?.[1]?.trim() ?? null;
    return { uid: field('Uid'), capEff: field('CapEff'), capPrm: field('CapPrm'), capBnd: field('CapBnd'), noNewPrivs: field('NoNewPrivs') };
  },
  'read-data-dir': (t) => ({ key: tryRead(t.reads.dataDirKey), listing: tryList(t.dataDir) }),
  'read-other-project': (t) => ({ file: tryRead(t.reads.otherProject), listing: tryList(t.sandboxesDir) }),
  'read-shadow': (t) => tryRead(t.reads.shadow),
  'read-checkout': (t) => tryRead(t.reads.checkout),
  'read-host-tmp': (t) => tryRead(t.reads.hostTmp),
  'connect-postgres-tcp': (t) => connect({ host: '127.0.0.1', port: t.postgresPort }),
  'connect-postgres-socket': (t) => connect({ path: t.postgresSocket }),
  'connect-other-dev-server': async (t) => {
    if (t.otherDevServer === null) return { connected: false, error: 'no target' };
    const got = await httpGet(t.otherDevServer, t.otherDevServerPath);
    return { ...got, body: undefined, canarySeen: typeof got.body === 'string' && got.body.includes(t.otherProjectCanaryText) };
  },
  'write-outside': (t) => Object.fromEntries(t.writeOutside.map((file) => [file, tryWrite(file, `escaped ${t.marker}\n`)])),
  disk: async (t, source) => {
    // Its own folder: a config a build tool loads twice must not remove the other one's files
    // while they are written (rmdir's ENOTEMPTY crashed the attack once).
    const dir = `${DIR}/fill-${source}-${process.pid}`;
    const r = await run(process.execPath, [SELF, 'fill', String(t.diskFillBytes), dir], 90_000);
    let reported = {};
    try {
      reported = JSON.parse(r.stdout);
    } catch {
      // killed (SIGXFSZ, the OOM killer) before it could report
    }
    let bytesInFiles = 0;
    try {
      for (const name of fs.readdirSync(dir)) {
        const info = fs.statSync(`${dir}/${name}`);
        bytesInFiles += Math.max(info.size, info.blocks * 512);
      }
    } catch (e) {
      reported.measureError = errText(e);
    }
    fs.rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
    return { target: t.diskFillBytes, ...reported, bytesInFiles, exit: r.code, signal: r.signal };
  },
  /** A double-forked, setsid'd heartbeat writer: must not outlive the process that started it. */
  daemon: async (t, source) => {
    const file = `${DIR}/heartbeat-${source}`;
    const child = spawn(process.execPath, [SELF, 'daemonize', file, `${t.marker}-${source}`], { detached: true, stdio: 'ignore' });
    child.on('error', () => undefined);
    child.unref();
    // Until it beats: a process started after the unmask below cannot even find its working folder.
    // Two node start-ups on a loaded 2-core machine took more than 5 s once (CI): wait up to 20 s.
    for (let i = 0; i < 200 && fileSize(file) === 0; i++) await new Promise((resolve) => setTimeout(resolve, 100));
    return { started: child.pid !== undefined, beating: fileSize(file) > 0 };
  },
  remount: async (t, source) => {
    // Only the bind mount's flags, which live in this mount namespace: remounting the filesystem
    // itself (no `bind`) would change the host's mount options too.
    const r = await run('mount', ['-o', 'remount,bind,rw', '/']);
    const mounts = [{ args: '-o remount,bind,rw /', code: r.code, error: r.error, stderr: r.stderr }];
    return { mounts, write: tryWrite(t.remountFiles[source], `escaped by remount ${t.marker}\n`) };
  },
  /** Late: slow where nothing stops it (a killed build then loses little). */
  processes: async (t) => {
    // sh forks cheaply (a node spawner takes 25 s for 1,000 on a loaded machine) and stops at the
    // first fork that fails; every sleep it started prints its pid, and is killed here. The sleeps
    // must not hold sh's stdout, or the output ends only when the last of them does.
    const script = `i=0; while [ $i -lt ${Number(t.processCount)} ]; do sleep 20 >/dev/null 2>&1 & echo $!; i=$((i+1)); done`;
    // All of its output: a pid cut in half would name (and kill) another process.
    const r = await run('sh', ['-c', script], 90_000, Infinity);
    const pids = r.stdout.split('\n').filter((line) => /^\d+$/.test(line)).map(Number);
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    return { requested: t.processCount, started: pids.length, exit: r.code, firstError: r.error ?? (r.stderr.trim() || null) };
  },
  /** Last: it may change this process's view for good (lazily unmounted masks). */
  unmask: async (t, source) => {
    const points = [...new Set([...t.masks, ...tmpfsMountPoints()])].sort((a, b) => b.length - a.length);
    const files = Object.values(t.reads);
    // First in a user and mount namespace of its own (which needs no capability where user
    // namespaces are allowed), then in this one.
    const script = `for p in ${points.map(quote).join(' ')}; do umount -l "$p" 2>/dev/null && echo "umounted $p"; done
for f in ${files.map(quote).join(' ')}; do sha256sum "$f" 2>/dev/null; done`;
    const nested = await run('unshare', ['--user', '--map-root-user', '--mount', 'sh', '-c', script]);
    const umounts = [];
    for (const point of points) {
      const r = await run('umount', ['-l', point]);
      umounts.push({ point, code: r.code, error: r.error, stderr: r.stderr.trim() });
    }
    const readsAfter = Object.fromEntries(Object.entries(t.reads).map(([name, file]) => [name, tryRead(file)]));
    return {
      nested: { code: nested.code, error: nested.error, stdout: nested.stdout, stderr: nested.stderr },
      umounts,
      readsAfter,
      tamper: tryWrite(t.tamperFiles[source], `// tampered ${t.marker}\n`),
    };
  },
};

function fileSize(file) {
  try {
    return fs.statSync(file).size;
  } catch {
    return 0;
  }
}

function tryReadText(file) {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

/**
 * Runs every attack once per project, even when the first run died half-way: a restarted dev
 * server loads the config again, and its new daemon would pass for one that outlived the old.
 */
export async function runAttacks(source) {
  const started = `${DIR}/started-${source}`;
  if (fs.existsSync(started)) return;
  fs.writeFileSync(started, '');
  const done = `${DIR}/done-${source}.json`;
  const targets = JSON.parse(fs.readFileSync(`${DIR}/targets.json`, 'utf8'));
  const results = {};
  for (const [name, attack] of Object.entries(attacks)) {
    // run-command's "outlive the command" attack is its own command with a short timeout.
    if (name === 'daemon' && source === 'run-command') continue;
    const began = Date.now();
    try {
      results[name] = await withTimeout(Promise.resolve(attack(targets, source)), ATTACK_TIMEOUT_MS);
    } catch (e) {
      results[name] = { crashed: errText(e) };
    }
    results[name].ms = Date.now() - began;
    tryWrite(`${DIR}/result-${source}-${name}.json`, JSON.stringify(results[name]));
  }
  tryWrite(done, JSON.stringify(results));
}

function fill(total, dir) {
  process.on('SIGXFSZ', () => undefined); // report EFBIG instead of dying
  fs.mkdirSync(dir, { recursive: true });
  const chunk = Buffer.alloc(MiB, 0x61);
  const perFile = 16 * MiB; // many files: a per-file limit alone does not stop this
  let written = 0;
  let error = null;
  for (let n = 0; written < total && error === null; n++) {
    let fd;
    try {
      fd = fs.openSync(`${dir}/fill-${n}`, 'w');
      for (let inFile = 0; inFile < perFile && written < total; ) {
        const wrote = fs.writeSync(fd, chunk);
        written += wrote;
        inFile += wrote;
        if (wrote < chunk.length) throw new Error(`short write (${wrote} bytes)`);
      }
    } catch (e) {
      error = errText(e);
    } finally {
      if (fd !== undefined) fs.closeSync(fd);
    }
  }
  process.stdout.write(JSON.stringify({ written, error }));
}

function heartbeat(file, _marker) {
  // Stops by itself after a minute whatever happens, so a leak never outlives the test for long.
  const started = Date.now();
  const once = () => {
    try {
      fs.appendFileSync(file, `${Date.now()}\n`);
    } catch {
      // the project may be gone
    }
  };
  once(); // at once: whoever started it waits for a first beat
  const beat = setInterval(() => {
    once();
    if (Date.now() - started > 60_000) clearInterval(beat);
  }, 200);
}

const [, script = '', mode, ...rest] = process.argv;
// Run directly (not imported by a vite.config): no top-level await, which a config loader may not take.
if (script.endsWith('attacks.mjs')) {
  const main =
    mode === 'fill'
      ? () => fill(Number(rest[0]), rest[1])
      : mode === 'daemonize'
        ? () => spawn(process.execPath, [SELF, 'heartbeat', ...rest], { detached: true, stdio: 'ignore' }).unref()
        : mode === 'heartbeat'
          ? () => heartbeat(rest[0], rest[1])
          : () => runAttacks(mode);
  Promise.resolve()
    .then(main)
    .catch((e) => {
      process.stderr.write(`${errText(e)}\n`);
      process.exitCode = 1;
    });
}
