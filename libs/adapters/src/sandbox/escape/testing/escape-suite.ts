import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { AttackResults, AttackSource } from './attack-results.js';
import {
  connectLeaks,
  daemonLeaks,
  diskLeaks,
  processLeaks,
  readLeaks,
  remountLeaks,
  unmaskLeaks,
  writeOutsideLeaks,
} from './escape-verdicts.js';
import { DISK_MARGIN_BYTES, ESCAPE_LIMITS, type EscapeEngine, EscapeWorld, PROCESS_ATTEMPTS, POSTGRES_PORT } from './escape-world.js';

export interface EscapeSource {
  readonly source: AttackSource;
  /** The host attacked (default the local one, in bubblewrap). */
  readonly engine?: EscapeEngine;
  /** Runs the attacker script from this source and answers what it reported. */
  readonly attack: (world: EscapeWorld, id: string) => Promise<AttackResults>;
  /**
   * Starts (or has started) a heartbeat daemon from this source and ends what started it;
   * answers the words for that end ("the command returned at its 2 s timeout").
   */
  readonly endDaemonSource: (world: EscapeWorld, id: string) => Promise<string>;
}

/**
 * Every attack of issue 12's escape suite, tried from one source against a real LocalSandboxHost.
 * Each test expects the attack refused; a failure lists what leaked.
 */
export function describeEscapes({ source, attack, endDaemonSource, engine = 'local' }: EscapeSource): void {
  describe(`Escape attempts from ${source}${engine === 'local' ? '' : ' (container host: Docker, gVisor)'}`, () => {
    let world: EscapeWorld;
    let id: string;
    let r: AttackResults;

    beforeAll(async () => {
      world = await EscapeWorld.create(engine);
      const victim = await world.victimDevServer();
      id = await world.attacker(source, victim);
      r = await attack(world, id);
    }, 240_000);
    afterAll(async () => {
      await world?.close();
    }, 60_000);

    it('cannot remount / read-write (it has no capabilities) and write a host file', () => {
      expect(remountLeaks(world, source, r)).toEqual([]);
    });

    it('cannot unmount the masks to expose what they hide', () => {
      expect(unmaskLeaks(world, source, r)).toEqual([]);
    });

    it('cannot read DATA_DIR (auth/jwt-key.json)', () => {
      expect(readLeaks(world, source, r, 'dataDirKey')).toEqual([]);
    });

    it("cannot read another project's files", () => {
      expect(readLeaks(world, source, r, 'otherProject')).toEqual([]);
    });

    it('cannot read /etc/shadow', () => {
      expect(readLeaks(world, source, r, 'shadow')).toEqual([]);
    });

    it("cannot read the checkout or the host's /tmp", () => {
      expect([...readLeaks(world, source, r, 'checkout'), ...readLeaks(world, source, r, 'hostTmp')]).toEqual([]);
    });

    it(`cannot connect to 127.0.0.1:${POSTGRES_PORT}`, () => {
      expect(connectLeaks(source, r, 'connect-postgres-tcp', `127.0.0.1:${POSTGRES_PORT} (PostgreSQL)`)).toEqual([]);
    });

    it("cannot connect to another project's dev server", () => {
      expect(connectLeaks(source, r, 'connect-other-dev-server', "another project's dev server")).toEqual([]);
    });

    it('cannot connect to PostgreSQL\'s Unix socket (/run/postgresql)', () => {
      expect(connectLeaks(source, r, 'connect-postgres-socket', `PostgreSQL's Unix socket (${world.postgresSocket})`)).toEqual([]);
    });

    it('cannot write outside the project (host /var/tmp, the projects folder, DATA_DIR; its /tmp is private)', () => {
      expect(writeOutsideLeaks(world, source, r)).toEqual([]);
    });

    it(`cannot start ${PROCESS_ATTEMPTS} processes (limit ${ESCAPE_LIMITS.processes})`, () => {
      expect(processLeaks(source, r)).toEqual([]);
    });

    it(`cannot write past the disk limit (3 × ${ESCAPE_LIMITS.diskBytes} bytes tried, margin ${DISK_MARGIN_BYTES})`, () => {
      expect(diskLeaks(source, r)).toEqual([]);
    });

    it('cannot keep a process alive past its end (setsid, double fork, nohup)', async () => {
      const ended = await endDaemonSource(world, id);
      expect(await daemonLeaks(world, id, source, ended)).toEqual([]);
    }, 60_000);
  });
}
