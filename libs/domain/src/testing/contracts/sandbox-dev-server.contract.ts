import { describe, expect, it } from '@jest/globals';
import type { DevServerStatus, SandboxDevServer, SandboxHostEvent } from '../../sandbox/sandbox-dev-server.port.js';
import { type SandboxRoleHarness, useSandboxHarness } from './sandbox-role-harness.js';

/** A harness for the SandboxDevServer suite. */
export type SandboxDevServerHarness = SandboxRoleHarness<SandboxDevServer>;

/**
 * The SandboxDevServer contract (SPEC §7 restart-dev, the preview): the state answers at once
 * (starting or running), one server per sandbox; no sandbox rejects; subscribers hear every change
 * until they unsubscribe, a throwing one harms nobody; cleanup and stopAll (the lifecycle) stop
 * servers.
 */
export function sandboxDevServerContract(name: string, makeHarness: () => Promise<SandboxDevServerHarness>): void {
  describe(`SandboxDevServer contract: ${name}`, () => {
    let h!: SandboxDevServerHarness;
    const newProject = useSandboxHarness('dev-server', makeHarness, (ready) => (h = ready));

    it('answers the dev server state at once (starting or running), one server per sandbox, and rejects without a sandbox', async () => {
      const id = await newProject();
      const first = await h.host.devServer(id);
      expect(['starting', 'running']).toContain(first.status);
      expect(first.socketPath === null || (typeof first.socketPath === 'string' && first.socketPath.startsWith('/'))).toBe(true);
      expect(typeof first.message).toBe('string');
      const second = await h.host.devServer(id);
      expect(['starting', 'running']).toContain(second.status);
      expect(second.socketPath).toBe(first.socketPath);
      await expect(h.host.devServer('contract-missing')).rejects.toThrow();
      await expect(h.host.restartDev('contract-missing')).rejects.toThrow();
    }, 60_000);

    it('tells subscribers about dev-server changes until they unsubscribe; cleanup and stopAll stop servers', async () => {
      const seen: SandboxHostEvent[] = [];
      const statuses = (sandboxId: string): DevServerStatus[] =>
        seen.filter((e) => e.sandboxId === sandboxId).map((e) => e.state.status);
      // Subscribed first: a host may start a new project's dev server as it creates the sandbox.
      const unsubscribe = h.host.subscribe((e) => seen.push(e));
      const throwing = h.host.subscribe(() => {
        throw new Error('a broken listener');
      });
      const id = await newProject();
      const other = await newProject();
      try {
        await h.host.devServer(id);
        await h.host.devServer(other);
        expect(statuses(id).length).toBeGreaterThan(0);
        expect(['starting', 'running']).toContain(statuses(id)[0]);
        expect(seen.every((e) => e.type === 'dev-server')).toBe(true);

        await h.host.restartDev(id);
        expect(statuses(id)).toContain('stopped');
        expect(['starting', 'running']).toContain(statuses(id).at(-1));

        await h.host.cleanup(id);
        expect(statuses(id).at(-1)).toBe('stopped');

        await h.host.stopAll();
        expect(statuses(other).at(-1)).toBe('stopped');
        expect(['starting', 'running']).toContain((await h.host.devServer(other)).status);
      } finally {
        unsubscribe();
        throwing();
      }
      const count = seen.length;
      await h.host.restartDev(other);
      await h.host.stopAll();
      expect(seen.length).toBe(count);
    }, 60_000); // a real host starts and stops processes here
  });
}
