// Issue 12's escape suite, source (d): the release build publishing runs (the project's
// vite.config loaded by Kiln's launcher in `release` mode, LocalSandboxHost.buildForRelease), and
// what it newly offers: its output is copied out of the sandbox by Kiln (LocalHostingProvider),
// so the config plants links to the host's files in it and leaves a daemon rewriting it while
// Kiln copies.
import { readdir, readFile, lstat } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { LocalHostingProvider } from '../../hosting/local-hosting-provider.adapter.js';
import { describeEscapes } from './testing/escape-suite.js';
import { ATTACKER_VITE_CONFIG, EscapeWorld, sleep } from './testing/escape-world.js';

/** The attacker's config, telling a release build (the launcher's argv says `release`) from the others. */
const RELEASE_ATTACKER_CONFIG = ATTACKER_VITE_CONFIG.replace(
  "command === 'build' ? 'build' : 'dev-server'",
  "command === 'build' ? (process.argv.includes('release') ? 'release' : 'build') : 'dev-server'",
);

const providerFor = (world: EscapeWorld) => new LocalHostingProvider({ hostingRoot: path.join(world.dataDir, 'hosting'), builder: world.host });

describeEscapes({
  source: 'release',
  attack: async (world, id) => {
    if (RELEASE_ATTACKER_CONFIG === ATTACKER_VITE_CONFIG) throw new Error('The attacker config changed: the release source cannot be told apart');
    await world.host.writeFile(id, 'vite.config.ts', RELEASE_ATTACKER_CONFIG);
    const build = await providerFor(world).buildRelease({ sandboxId: id, projectId: id, releaseId: 'escape-release' });
    return world.results(id, 'release').catch((e: Error) => {
      throw new Error(`${e.message}; the release build: ${build.kind} ${build.log.slice(-500)}`);
    });
  },
  // The release build is a command of its own (its own PID namespace and cgroup membership):
  // everything it started is gone when it returns.
  endDaemonSource: async () => 'the release build returned',
});

/**
 * A config plugin that, once Vite wrote the output: links Kiln's JWT key, /etc/shadow and DATA_DIR
 * into it, and starts a setsid'd, double-forked daemon that keeps swapping index.html for a link
 * to the key and writing a heartbeat, hoping to outlive the build and race Kiln's copy.
 */
const racingConfig = (world: EscapeWorld, id: string): string => {
  const project = path.join(world.sandboxesDir, id);
  const out = path.join(project, '.kiln-build', 'release');
  const key = world.reads.dataDirKey;
  const daemon = [
    "const fs = require('node:fs');",
    `const out = ${JSON.stringify(out)};`,
    'const until = Date.now() + 20000;',
    'const beat = () => {',
    `  try { fs.appendFileSync(${JSON.stringify(path.join(project, '.attack-heartbeat'))}, Date.now() + '\\n'); } catch {}`,
    `  try { fs.rmSync(out + '/index.html', { force: true }); fs.symlinkSync(${JSON.stringify(key)}, out + '/index.html'); } catch {}`,
    "  try { fs.writeFileSync(out + '/late-' + Date.now() + '.txt', 'late'); } catch {}",
    '  if (Date.now() < until) setTimeout(beat, 5);',
    '};',
    'beat();',
  ].join('\n');
  // Double fork and a new session: the grandchild is no child of the build.
  const starter = `require('node:child_process').spawn(process.execPath, ['-e', process.argv[1], ${JSON.stringify(`${world.marker('release')}-racer`)}], { detached: true, stdio: 'ignore' }).unref()`;
  return `import { spawn } from 'node:child_process';
import { existsSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'vite';

const out = ${JSON.stringify(out)};
const plant = {
  name: 'plant',
  async closeBundle() {
    symlinkSync(${JSON.stringify(key)}, path.join(out, 'jwt-key.json'));
    symlinkSync('/etc/shadow', path.join(out, 'shadow.txt'));
    symlinkSync(${JSON.stringify(world.dataDir)}, path.join(out, 'assets', 'data'));
    spawn(process.execPath, ['-e', ${JSON.stringify(starter)}, ${JSON.stringify(daemon)}], { detached: true, stdio: 'ignore' }).unref();
    // The build ends only once the daemon beats: it is running when Kiln starts copying. Two node
    // start-ups on a loaded 2-core machine took more than 3 s once (CI): wait up to 20 s.
    for (let i = 0; i < 1000 && !existsSync(${JSON.stringify(path.join(project, '.attack-heartbeat'))}); i++) await new Promise((r) => setTimeout(r, 20));
  },
};

export default defineConfig({ plugins: [react(), tailwindcss(), plant], resolve: { tsconfigPaths: true } });
`;
};

describe("Escape attempts through the release build's output", () => {
  let world: EscapeWorld;
  beforeAll(async () => {
    world = await EscapeWorld.create();
  }, 240_000);
  afterAll(async () => {
    await world?.close();
  }, 60_000);

  it("publishes neither a planted link nor the host's files, and no daemon outlives the build to race the copy", async () => {
    const id = 'attacker-release-race';
    await world.host.ensure(id);
    await world.host.writeFile(id, 'vite.config.ts', racingConfig(world, id));
    const provider = providerFor(world);
    const build = await provider.buildRelease({ sandboxId: id, projectId: id, releaseId: 'race' });
    // The daemon died with the build: its heartbeat stops and no process carries its marker.
    const beats = async () => (await world.host.readFile(id, '.attack-heartbeat').catch(() => '')).length;
    const first = await beats();
    await sleep(1000);
    const second = await beats();
    const alive = world.markerProcesses('release');
    world.killMarkerProcesses();
    expect(alive).toEqual([]);
    expect(first).toBeGreaterThan(0); // it did run while the build did
    expect(second).toBe(first);

    // Whatever the race left, the release holds regular files and folders only, none with the host's secrets.
    if (build.kind === 'failed') return; // e.g. index.html was a link when copied: nothing published
    const dir = provider.releaseDir(id, 'race');
    const secrets = [world.canaryText, (await readFile('/etc/shadow', 'utf8')).slice(0, 40)];
    const found: string[] = [];
    const walk = async (d: string): Promise<void> => {
      for (const name of await readdir(d)) {
        const file = path.join(d, name);
        const info = await lstat(file);
        if (info.isDirectory()) await walk(file);
        else if (!info.isFile()) found.push(`not a file: ${file}`);
        else {
          const text = await readFile(file, 'utf8');
          for (const secret of secrets) if (text.includes(secret)) found.push(`a secret in ${file}`);
        }
      }
    };
    await walk(dir);
    expect(found).toEqual([]);
    const top = await readdir(dir);
    expect(top).not.toContain('jwt-key.json');
    expect(top).not.toContain('shadow.txt');
    expect(await readdir(path.join(dir, 'assets'))).not.toContain('data');
  }, 180_000);
});
