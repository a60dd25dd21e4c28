import { execFile } from 'node:child_process';
import type { BubblewrapJail } from './bubblewrap-jail.js';

/** Whether project code runs isolated on this machine, and if not, why (the start-up check). */
export type IsolationStatus =
  | { readonly isolated: true; readonly limits?: string }
  | { readonly isolated: false; readonly reason: string; readonly limits?: string };

/**
 * Runs `true` in a sandbox made exactly as project processes are: bubblewrap must be installed and
 * able to create an unprivileged user namespace with every capability dropped. A kernel or
 * container that forbids user namespaces fails here, not at a person's first command.
 */
export async function probeIsolation(jail: BubblewrapJail | null): Promise<IsolationStatus> {
  if (jail === null) return { isolated: false, reason: 'bubblewrap is not installed (apt-get install bubblewrap)' };
  const args = await jail.args({ writable: [], readOnly: [], cwd: '/', network: 'none' });
  return new Promise((resolve) => {
    execFile(jail.bwrapPath, [...args, '--', '/bin/sh', '-c', 'test "$(id -u)" != 0 && ! grep -q "^CapEff:.*[1-9a-f]" /proc/self/status'], { timeout: 10_000, env: { PATH: '/usr/bin:/bin' } }, (error, _stdout, stderr) => {
      if (error === null) resolve({ isolated: true });
      else resolve({ isolated: false, reason: `bubblewrap cannot make an unprivileged sandbox here: ${(stderr || error.message).trim().slice(0, 300)}` });
    });
  });
}
