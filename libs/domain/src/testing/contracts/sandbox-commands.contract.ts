import { describe, expect, it } from '@jest/globals';
import type { SandboxCommands } from '../../sandbox/sandbox-commands.port.js';
import type { SandboxFiles } from '../../sandbox/sandbox-files.port.js';
import { rejectionCode, type SandboxRoleHarness, useSandboxHarness } from './sandbox-role-harness.js';

/** A harness for the SandboxCommands suite. */
export type SandboxCommandsHarness = SandboxRoleHarness<SandboxCommands & SandboxFiles>;

/**
 * The SandboxCommands contract (SPEC §7 run-command, §9): commands run in the project and report
 * exit codes (or a host that cannot run them says so clearly), never in a working folder outside
 * it; output streams as it arrives; a command stops at its timeout; output is capped and says so.
 * The streaming test writes a file while the command runs.
 */
export function sandboxCommandsContract(name: string, makeHarness: () => Promise<SandboxCommandsHarness>): void {
  describe(`SandboxCommands contract: ${name}`, () => {
    let h!: SandboxCommandsHarness;
    const newProject = useSandboxHarness('commands', makeHarness, (ready) => (h = ready));

    it('runs commands in the project (or says clearly it cannot)', async () => {
      const id = await newProject();
      const ls = await h.host.runCommand(id, ['ls'], { workingDir: 'src' });
      if (!h.runsCommands) {
        expect(ls.exitCode).not.toBe(0);
        expect(ls.stderr).not.toBe('');
        return;
      }
      expect(ls).toMatchObject({ exitCode: 0, timedOut: false, outputTruncated: false });
      expect(ls.stdout.split('\n')).toEqual(expect.arrayContaining(['App.tsx', 'main.tsx']));
      const failed = await h.host.runCommand(id, ['sh', '-c', 'echo oops >&2; exit 3']);
      expect(failed).toMatchObject({ exitCode: 3, stderr: 'oops\n', timedOut: false });
      const missing = await h.host.runCommand(id, ['definitely-not-a-command-kiln']);
      expect(missing.exitCode).not.toBe(0);
    });

    it('refuses a working folder outside the project', async () => {
      const id = await newProject();
      for (const workingDir of ['../..', '/etc', '%2e%2e']) {
        expect(await rejectionCode(h.host.runCommand(id, ['pwd'], { workingDir }))).toBe('SANDBOX.PATH_OUTSIDE');
      }
    });

    it('streams output to onOutput as it arrives: the same text the result holds, per stream', async () => {
      if (!h.runsCommands) return;
      const id = await newProject();
      const got = { stdout: '', stderr: '' };
      // The command waits for a file the test writes only once it has seen 'one': unless output
      // is streamed while the command runs, it would run into its timeout.
      const result = await h.host.runCommand(
        id,
        ['sh', '-c', 'echo one; echo oops >&2; while [ ! -f go ]; do sleep 0.05; done; printf "two ✓"'],
        {
          timeoutSeconds: 10,
          onOutput: (stream, text) => {
            if (stream === 'stdout' && got.stdout === '' && text.startsWith('one')) void h.host.writeFile(id, 'go', '');
            got[stream] += text;
          },
        },
      );
      expect(result).toMatchObject({ exitCode: 0, timedOut: false, stdout: 'one\ntwo ✓', stderr: 'oops\n' });
      expect(got).toEqual({ stdout: result.stdout, stderr: result.stderr });

      const capped = { stdout: '', stderr: '' };
      const big = await h.host.runCommand(id, ['sh', '-c', 'head -c 3000000 /dev/zero | tr "\\0" a'], {
        onOutput: (stream, text) => (capped[stream] += text),
      });
      expect(big.outputTruncated).toBe(true);
      expect(capped.stdout).toBe(big.stdout); // the cap applies to the stream too, marker included
    });

    it('stops a command at the timeout (the adapter tests time it)', async () => {
      if (!h.runsCommands) return;
      const id = await newProject();
      const result = await h.host.runCommand(id, ['sh', '-c', 'sleep 60 & sleep 60; wait'], { timeoutSeconds: 1 });
      expect(result.timedOut).toBe(true);
      expect(result.exitCode).not.toBe(0);
    });

    it('caps the output and says so', async () => {
      if (!h.runsCommands) return;
      const id = await newProject();
      const result = await h.host.runCommand(id, ['sh', '-c', 'head -c 3000000 /dev/zero | tr "\\0" a']);
      expect(result.outputTruncated).toBe(true);
      expect(result.stdout.length).toBeLessThan(3000000);
      expect(result.stdout).toMatch(/truncated/);
      expect(result.exitCode).toBe(0);
    });
  });
}
