import { existsSync } from 'node:fs';
import { lstat, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DEFAULT_BWRAP_PATH, LocalSandboxHost } from './local-sandbox-host.adapter.js';
import { tempSandboxRoot } from './testing/sandbox-test-dirs.js';

const hasBwrap = existsSync(DEFAULT_BWRAP_PATH);
const CALLS = 2_000;
const CONCURRENCY = 16;
const OUTSIDE_CANARY = 'OUTSIDE-CANARY: the API read a file outside the project';
const OUTSIDE_TARGET = 'OUTSIDE-ORIGINAL';

/**
 * The project's own attacker: a command that swaps the folder `d` and a link `d` → `outside` as fast
 * as it can (renames only, so `d` is missing for microseconds at most). A folder the API creates at
 * `d` while it is missing is moved aside, so the swap goes on. It runs until the file `stop` appears
 * and prints how many swaps it made.
 */
const SWAPPER = `
const fs = require('fs');
const outside = process.argv[1];
const original = fs.lstatSync('d').ino;
let swaps = 0, junk = 0;
const attempt = (f) => { try { f(); } catch {} };
const info = (name) => { try { return fs.lstatSync(name); } catch { return null; } };
for (;;) {
  if ((swaps & 255) === 0 && fs.existsSync('stop')) break;
  attempt(() => fs.renameSync('d', 'd.real'));
  attempt(() => fs.renameSync('d.link', 'd'));
  attempt(() => fs.renameSync('d', 'd.link'));
  attempt(() => fs.renameSync('d.real', 'd'));
  swaps++;
  // Put things back as they were: a folder the API made while 'd' was missing goes aside, the
  // original folder back at 'd', the link at 'd.link'.
  for (const name of ['d', 'd.real', 'd.link']) {
    const s = info(name);
    if (s !== null && s.isDirectory() && s.ino !== original) attempt(() => fs.renameSync(name, 'junk-' + ++junk));
  }
  for (const name of ['d.real', 'd.link']) {
    const s = info(name);
    if (s !== null && s.ino === original) attempt(() => fs.renameSync(name, 'd'));
  }
  if (info('d.link') === null) attempt(() => fs.symlinkSync(outside, 'd.link'));
}
process.stdout.write(String(swaps));
`;

interface Outcome {
  readonly insideReads: number;
  readonly outsideReads: number;
  readonly writes: number;
  readonly refused: number;
  readonly missing: number;
  readonly other: string[];
}

/**
 * Issue #12 item 5: read-file and write-file must never be raced into the world outside the
 * project. The API runs unsandboxed (as root on CI), so a path it checks and then uses again is a
 * way out; this spec runs 2,000 of them while a command swaps a folder for a link out.
 */
describe(`LocalSandboxHost file routes under a folder/link swap (${hasBwrap ? 'bubblewrap' : 'no bubblewrap'})`, () => {
  let root: string;
  let close: () => Promise<void>;
  let host: LocalSandboxHost;

  beforeAll(async () => {
    ({ root, close } = await tempSandboxRoot('kiln-file-race-'));
    host = new LocalSandboxHost({ root, cacheDir: null });
  });
  afterAll(async () => {
    await host.stopAll();
    await close();
  });

  it(`never reads or writes outside the project in ${CALLS} read-file/write-file calls`, async () => {
    const id = 'race';
    await host.ensure(id);
    const project = path.join(root, id);
    // Outside the project (beside it, as DATA_DIR's secrets are): a canary to read, a file to overwrite.
    const outside = path.join(root, 'outside');
    await mkdir(path.join(outside, 'sub'), { recursive: true });
    await writeFile(path.join(outside, 'canary.txt'), OUTSIDE_CANARY);
    await writeFile(path.join(outside, 'target.txt'), OUTSIDE_TARGET);
    await host.writeFile(id, 'd/canary.txt', 'inside');
    await host.writeFile(id, 'd/target.txt', 'inside');
    await host.createDirectory(id, 'd/sub');

    const swapping = host.runCommand(id, [process.execPath, '-e', SWAPPER, outside], { timeoutSeconds: 60 });
    // Start once the swap runs (its link is made first).
    for (let i = 0; i < 200 && (await lstat(path.join(project, 'd.link')).catch(() => null)) === null; i++) {
      await new Promise((r) => setTimeout(r, 25));
    }

    const outcome = { insideReads: 0, outsideReads: 0, writes: 0, refused: 0, missing: 0, other: [] as string[] };
    const call = async (i: number): Promise<void> => {
      try {
        if (i % 2 === 0) {
          const text = await host.readFile(id, i % 4 === 0 ? 'd/canary.txt' : 'd/sub/../canary.txt');
          if (text === OUTSIDE_CANARY) outcome.outsideReads++;
          else outcome.insideReads++;
        } else {
          const file = i % 3 === 0 ? 'd/target.txt' : i % 3 === 1 ? `d/new-${i}.txt` : `d/sub/new-${i}.txt`;
          await host.writeFile(id, file, `written by call ${i}`);
          outcome.writes++;
        }
      } catch (e) {
        const code = (e as { code?: unknown }).code;
        if (code === 'SANDBOX.PATH_OUTSIDE') outcome.refused++;
        else if (code === 'ENOENT') outcome.missing++;
        else outcome.other.push(`${String(code)}: ${(e as Error).message}`);
      }
    };
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < CALLS) await call(next++);
      }),
    );
    await writeFile(path.join(project, 'stop'), '');
    const swapper = await swapping;

    const leftOutside = (await readdir(outside, { recursive: true })).sort();
    const result: Outcome & { swaps: number; outsideFiles: string[]; targetIntact: boolean } = {
      ...outcome,
      other: outcome.other.slice(0, 5),
      swaps: Number(swapper.stdout) || 0,
      outsideFiles: leftOutside,
      targetIntact: (await readFile(path.join(outside, 'target.txt'), 'utf8')) === OUTSIDE_TARGET,
    };
    // The counts, for the record (and to see the old resolve-then-use code fail).
    console.info(`file race: ${JSON.stringify({ ...result, outsideFiles: result.outsideFiles.length })}`);

    expect(swapper.exitCode).toBe(0);
    expect(result.swaps).toBeGreaterThan(1_000); // the swap really ran meanwhile
    expect(result.refused).toBeGreaterThan(0); // and the calls really met the link
    expect({
      outsideReads: result.outsideReads,
      outsideFiles: result.outsideFiles,
      targetIntact: result.targetIntact,
      other: result.other,
    }).toEqual({ outsideReads: 0, outsideFiles: ['canary.txt', 'sub', 'target.txt'], targetIntact: true, other: [] });
  }, 60_000);
});
