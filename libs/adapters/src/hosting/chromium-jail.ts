import { execFile } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { BubblewrapJail } from '../sandbox/isolation/bubblewrap-jail.js';
import type { CgroupLimits } from '../sandbox/isolation/cgroup-limits.js';
import type { IsolationStatus } from '../sandbox/isolation/isolation-probe.js';
import { jailCommand, PRLIMIT_PATH } from '../sandbox/isolation/jail-command.js';
import type { SandboxLimits } from '../sandbox/isolation/sandbox-limits.js';

/** util-linux's setpriv: drops Kiln's root to an unprivileged host uid before bubblewrap. */
export const SETPRIV_PATH = '/usr/bin/setpriv';
/** The host uid a screenshot's browser runs as when Kiln is root: nobody. */
export const SCREENSHOT_HOST_UID = 65534;

/** Host configuration Chromium reads (fonts, Debian's launcher flags); read-only in the jail. */
const CHROMIUM_ETC = ['/etc/fonts', '/etc/chromium.d', '/etc/chromium'];

export interface ChromiumJailOptions {
  readonly jail: BubblewrapJail;
  readonly limits: SandboxLimits;
  readonly cgroups: Promise<CgroupLimits>;
  /** Debian's launcher (/usr/bin/chromium) or another Chromium. */
  readonly chromiumPath: string;
  /** The egress forwarder, installed where the jail's uid can read it. */
  readonly forwarder: () => Promise<string>;
  /** The host uid the jail runs as when Kiln is root (setpriv); null keeps Kiln's uid. */
  readonly hostUid: number | null;
}

/** One capture's jailed browser: the script playwright-core launches as Chromium. */
export interface JailedChromium {
  readonly executable: string;
  /** Where the script writes its pid (bubblewrap's, everything after it is exec'd): the process group to kill. */
  readonly pidFile: string;
  readonly groupId: string;
}

/**
 * Chromium in the same jail as project code (docs/security.md "Screenshots"), as a shell script
 * playwright-core runs in Chromium's place — its DevTools pipe (fds 3 and 4) is inherited through
 * every step: `sh` joins the capture's cgroup → `prlimit` → `setpriv` to nobody (when Kiln is
 * root, so the browser is no host root even outside its namespace) → `bwrap` (own user namespace
 * as uid 1000 with no capability, own network namespace with only loopback, read-only system, a
 * private /tmp holding the profile, `--die-with-parent`) → the egress forwarder on 127.0.0.1 inside,
 * piping to the capture proxy's socket (the only folder of Kiln's in the jail) → Chromium with
 * `--proxy-server` at the forwarder and `<-loopback>` (even 127.0.0.1 goes through the proxy).
 */
export class ChromiumJail {
  constructor(private readonly options: ChromiumJailOptions) {}

  /** Writes `<dir>/chromium.sh` for a capture whose proxy listens at `socketPath` (in a folder of its own). */
  async prepare(dir: string, groupId: string, socketPath: string): Promise<JailedChromium> {
    const { jail, limits, chromiumPath } = this.options;
    const forwarder = await this.options.forwarder();
    const pidFile = path.join(dir, 'pid');
    const cgroups = await this.options.cgroups;
    const command = jailCommand({
      limits,
      cgroupProcs: await cgroups.join(groupId),
      prlimit: existsSync(PRLIMIT_PATH),
      bwrap: [...this.dropRoot(), jail.bwrapPath, ...(await jail.args({ writable: [], readOnly: this.readOnly(socketPath, forwarder), cwd: '/tmp', network: 'none' }))],
      argv: [
        process.execPath,
        forwarder,
        '--pass-fds=3,4',
        socketPath,
        '--',
        '/bin/sh',
        '-c',
        // The forwarder's port is in HTTP_PROXY; playwright-core's flags follow.
        'exec "$0" --proxy-server="$HTTP_PROXY" --proxy-bypass-list="<-loopback>" "$@"',
        chromiumPath,
      ],
    });
    const executable = path.join(dir, 'chromium.sh');
    await writeFile(executable, `#!/bin/sh\necho $$ > ${quote(pidFile)}\nexec ${command.map(quote).join(' ')} "$@"\n`, { mode: 0o700 });
    return { executable, pidFile, groupId };
  }

  /** Kills whatever of the capture is left (the cgroup's processes) and removes its group. */
  async release(groupId: string): Promise<void> {
    await (await this.options.cgroups).remove(groupId);
  }

  /**
   * Runs `id -u` and a capability check in the jail exactly as a capture does (setpriv included):
   * answers whether screenshots can be isolated here, and if not why.
   */
  async probe(): Promise<IsolationStatus> {
    const { jail } = this.options;
    if (!existsSync(jail.bwrapPath)) return { isolated: false, reason: `bubblewrap is not installed at ${jail.bwrapPath} (apt-get install bubblewrap)` };
    if (this.options.hostUid !== null && !existsSync(SETPRIV_PATH)) return { isolated: false, reason: `setpriv is not installed at ${SETPRIV_PATH} (util-linux)` };
    const [file, ...args] = [...this.dropRoot(), jail.bwrapPath, ...(await jail.args({ writable: [], readOnly: [], cwd: '/', network: 'none' }))];
    const check = 'test "$(id -u)" != 0 && ! grep -q "^CapEff:.*[1-9a-f]" /proc/self/status';
    return new Promise((resolve) => {
      execFile(file as string, [...args, '--', '/bin/sh', '-c', check], { timeout: 10_000, env: { PATH: '/usr/bin:/bin' } }, (error, _out, stderr) => {
        if (error === null) resolve({ isolated: true });
        else resolve({ isolated: false, reason: `bubblewrap cannot make an unprivileged jail here: ${(stderr || error.message).trim().slice(0, 300)}` });
      });
    });
  }

  private dropRoot(): string[] {
    const uid = this.options.hostUid;
    return uid === null ? [] : [SETPRIV_PATH, `--reuid=${uid}`, `--regid=${uid}`, '--clear-groups', '--inh-caps=-all', '--bounding-set=-all'];
  }

  private readOnly(socketPath: string, forwarder: string): string[] {
    const chromium = path.dirname(realpathSync(this.options.chromiumPath));
    return [
      path.dirname(socketPath),
      forwarder,
      ...CHROMIUM_ETC.filter((p) => existsSync(p)),
      // A Chromium outside /usr (CHROMIUM_PATH) needs its own folder.
      ...(chromium === '/usr' || chromium.startsWith('/usr/') ? [] : [chromium]),
    ];
  }
}

/** One shell word. */
function quote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

