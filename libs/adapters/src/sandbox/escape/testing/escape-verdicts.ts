// What leaked, attack by attack: each verdict lists the leaks in words (empty: refused). A verdict
// judges from what the host sees where it can (files appearing, processes alive, hashes of host
// files), and never passes on silence: an attack that did not report is listed as a problem.
import type { AttackResults, AttackSource, ReadName, ReadResult } from './attack-results.js';
import { DISK_MARGIN_BYTES, ESCAPE_LIMITS, type EscapeWorld, PROCESS_ATTEMPTS, sleep } from './escape-world.js';

const FROM: Record<AttackSource, string> = {
  'run-command': 'a run-command',
  'dev-server': "the dev server's vite.config",
  build: "the build's vite.config (find-errors)",
  release: "the release build's vite.config (publish)",
};

const READ_WORDS: Record<ReadName, string> = {
  dataDirKey: 'DATA_DIR/auth/jwt-key.json',
  otherProject: "another project's file",
  shadow: '/etc/shadow',
  checkout: "the checkout's package.json",
  hostTmp: "a file in the host's /tmp",
};

/** The attacks' own problems (no report, a crash): never counted as refused. */
function unreported(source: AttackSource, r: AttackResults, ...names: (keyof AttackResults)[]): string[] {
  return names.flatMap((name) => {
    const result = r[name] as { crashed?: string } | undefined;
    if (result === undefined) return [`${FROM[source]}: the '${name}' attack did not report (${r.unfinished ?? 'the attacker died or hung before it'})`];
    if (result.crashed !== undefined) return [`${FROM[source]}: the '${name}' attack crashed: ${result.crashed}`];
    return [];
  });
}

function matches(world: EscapeWorld, name: ReadName, read: ReadResult | undefined): boolean {
  return read?.ok === true && read.sha256 === world.expected[name];
}

/** What the plain reads (no unmounting) got, by target. */
function directReads(r: AttackResults): Record<ReadName, ReadResult | undefined> {
  return {
    dataDirKey: r['read-data-dir']?.key,
    otherProject: r['read-other-project']?.file,
    shadow: r['read-shadow'],
    checkout: r['read-checkout'],
    hostTmp: r['read-host-tmp'],
  };
}

export function remountLeaks(world: EscapeWorld, source: AttackSource, r: AttackResults): string[] {
  const problems = unreported(source, r, 'capabilities', 'remount');
  if (problems.length > 0) return problems;
  const leaks: string[] = [];
  const caps = r.capabilities;
  if (caps?.capEff != null && !/^0+$/.test(caps.capEff)) {
    leaks.push(`${FROM[source]} runs with effective capabilities ${caps.capEff} (uid ${caps.uid?.split(/\s+/)[0] ?? '?'}): mount(2) is open to any binary it brings`);
  }
  for (const m of r.remount?.mounts ?? []) if (m.code === 0) leaks.push(`${FROM[source]}: \`mount ${m.args}\` succeeded`);
  const file = world.remountFile(source);
  if (world.hostHas(file)) leaks.push(`${FROM[source]} wrote ${file} on the host after remounting /`);
  return leaks;
}

export function unmaskLeaks(world: EscapeWorld, source: AttackSource, r: AttackResults): string[] {
  const problems = unreported(source, r, 'unmask');
  if (problems.length > 0 || r.unmask === undefined) return problems;
  const { nested, umounts, readsAfter } = r.unmask;
  const leaks: string[] = [];
  for (const u of umounts) if (u.code === 0) leaks.push(`${FROM[source]} unmounted ${u.point} (\`umount -l\`)`);
  const nestedLines = (nested.stdout ?? '').split('\n');
  for (const line of nestedLines) {
    if (line.startsWith('umounted ')) leaks.push(`${FROM[source]}, in a user and mount namespace of its own, unmounted ${line.slice('umounted '.length)}`);
  }
  // What only unmounting exposes: the plain reads are the read tests' business.
  const direct = directReads(r);
  for (const [name, file] of Object.entries(world.reads) as [ReadName, string][]) {
    if (matches(world, name, direct[name])) continue;
    if (matches(world, name, readsAfter[name])) leaks.push(`${FROM[source]} read ${READ_WORDS[name]} (${file}) after unmounting the masks`);
    if (nestedLines.some((l) => l.startsWith(`${world.expected[name]}  `))) {
      leaks.push(`${FROM[source]} read ${READ_WORDS[name]} (${file}) in a namespace of its own`);
    }
  }
  const tamper = world.tamperFile(source);
  if (world.hostHas(tamper)) leaks.push(`${FROM[source]} wrote into another project on the host (${tamper})`);
  return leaks;
}

export function readLeaks(world: EscapeWorld, source: AttackSource, r: AttackResults, name: ReadName): string[] {
  const attack = ({ dataDirKey: 'read-data-dir', otherProject: 'read-other-project', shadow: 'read-shadow', checkout: 'read-checkout', hostTmp: 'read-host-tmp' } as const)[name];
  const problems = unreported(source, r, attack);
  if (problems.length > 0) return problems;
  const leaks: string[] = [];
  if (matches(world, name, directReads(r)[name])) leaks.push(`${FROM[source]} read ${READ_WORDS[name]} (${world.reads[name]}): the host's content`);
  const dataDirListing = r['read-data-dir']?.listing;
  if (name === 'dataDirKey' && dataDirListing?.names?.includes('auth') === true) {
    leaks.push(`${FROM[source]} listed DATA_DIR (${world.dataDir}): ${dataDirListing.names.join(', ')}`);
  }
  const sandboxesListing = r['read-other-project']?.listing;
  if (name === 'otherProject' && sandboxesListing?.names?.includes('victim') === true) {
    leaks.push(`${FROM[source]} listed the other projects (${world.sandboxesDir}): ${sandboxesListing.names.join(', ')}`);
  }
  return leaks;
}

export function connectLeaks(
  source: AttackSource,
  r: AttackResults,
  attack: 'connect-postgres-tcp' | 'connect-postgres-socket' | 'connect-other-dev-server',
  what: string,
): string[] {
  const problems = unreported(source, r, attack);
  if (problems.length > 0) return problems;
  const c = r[attack];
  if (c?.connected !== true) return [];
  const http = c.status === undefined ? '' : ` (HTTP ${c.status}${c.canarySeen === true ? ", and got the other project's canary file" : ''})`;
  return [`${FROM[source]} connected to ${what}${http}`];
}

export function writeOutsideLeaks(world: EscapeWorld, source: AttackSource, r: AttackResults): string[] {
  const problems = unreported(source, r, 'write-outside');
  if (problems.length > 0) return problems;
  return world
    .writeOutsideFiles(source)
    .filter((file) => world.hostHas(file))
    .map((file) => `${FROM[source]} created ${file} on the host`);
}

export function processLeaks(source: AttackSource, r: AttackResults): string[] {
  const problems = unreported(source, r, 'processes');
  if (problems.length > 0) return problems;
  const started = r.processes?.started ?? 0;
  return started >= PROCESS_ATTEMPTS
    ? [`${FROM[source]} started ${started} of ${PROCESS_ATTEMPTS} processes (\`sleep 20\`): no process limit (asked for ${ESCAPE_LIMITS.processes})`]
    : [];
}

export function diskLeaks(source: AttackSource, r: AttackResults): string[] {
  const problems = unreported(source, r, 'disk');
  if (problems.length > 0 || r.disk === undefined) return problems;
  const { target, written, error, signal, bytesInFiles } = r.disk;
  const leaks: string[] = [];
  if (written !== undefined && written >= target && (error ?? null) === null && (signal ?? null) === null) {
    leaks.push(`${FROM[source]} wrote all ${target} bytes (3× the ${ESCAPE_LIMITS.diskBytes}-byte disk limit) without an error`);
  }
  if (bytesInFiles > ESCAPE_LIMITS.diskBytes + DISK_MARGIN_BYTES) {
    leaks.push(`${FROM[source]}'s project held ${bytesInFiles} bytes of written files (limit ${ESCAPE_LIMITS.diskBytes} + margin ${DISK_MARGIN_BYTES})`);
  }
  return leaks;
}

/**
 * After `ended` (the command returned, the dev server restarted, find-errors returned): 1.5 s
 * later the heartbeat file must have stopped growing and no process may carry the source's marker.
 * Kills what it finds, so nothing outlives the test.
 */
export async function daemonLeaks(world: EscapeWorld, id: string, source: AttackSource, ended: string): Promise<string[]> {
  const file = `.attack/heartbeat-${source}`;
  const size = async () => (await world.host.readFile(id, file).catch(() => '')).length;
  await sleep(1500);
  const first = await size();
  await sleep(1000);
  const second = await size();
  const alive = world.markerProcesses(source);
  world.killMarkerProcesses();
  const leaks: string[] = [];
  // No heartbeat at all proves nothing: the daemon must have run while its source did.
  if (second === 0) leaks.push(`${FROM[source]}: the heartbeat ${file} never beat (the attack did not run), so this proves nothing`);
  if (second > first) leaks.push(`${FROM[source]}: the heartbeat ${file} still grew (${first} → ${second} bytes) after ${ended}`);
  for (const p of alive) leaks.push(`${FROM[source]}: still running after ${ended}: ${p.slice(0, 200)}`);
  return leaks;
}
