import { describe, expect, it } from '@jest/globals';
import type { SandboxFiles } from '../../sandbox/sandbox-files.port.js';
import { type SandboxRoleHarness, useSandboxHarness } from './sandbox-role-harness.js';

/** A harness for the SandboxLifecycle suite. */
export type SandboxLifecycleHarness = SandboxRoleHarness<SandboxFiles>;

/**
 * The SandboxLifecycle contract (SPEC §4 stage 1, §7): a project's sandbox starts from the starter
 * template once and is only described afterwards; a malformed id is refused; cleanup removes
 * everything and the next ensure starts fresh; cleanup is idempotent, also for a sandbox never made;
 * the machine's state follows. Files are how a suite sees a sandbox's content.
 */
export function sandboxLifecycleContract(name: string, makeHarness: () => Promise<SandboxLifecycleHarness>): void {
  describe(`SandboxLifecycle contract: ${name}`, () => {
    let h!: SandboxLifecycleHarness;
    const newProject = useSandboxHarness('lifecycle', makeHarness, (ready) => (h = ready));

    it('creates the sandbox from the starter template once, then only describes it', async () => {
      const first = await h.host.ensure('contract-ensure');
      expect(first).toMatchObject({ projectId: 'contract-ensure', machineCreated: true });
      const names = (await h.host.readDirectory('contract-ensure', '.')).map((e) => e.name);
      expect(names).toEqual(expect.arrayContaining(['package.json', 'index.html', 'src', 'tsconfig.json']));
      expect(await h.host.readFile('contract-ensure', 'src/App.tsx')).toContain('export');
      const again = await h.host.ensure('contract-ensure');
      expect(again.machineCreated).toBe(false);
    });

    it('refuses a malformed sandbox id', async () => {
      await expect(h.host.ensure('../escape')).rejects.toThrow();
      await expect(h.host.readFile('.', 'package.json')).rejects.toThrow();
    });

    it('removes everything on cleanup; the next ensure starts fresh', async () => {
      const id = await newProject();
      await h.host.writeFile(id, 'src/temp.ts', 'x');
      await h.host.cleanup(id);
      await expect(h.host.readFile(id, 'src/temp.ts')).rejects.toThrow();
      expect((await h.host.ensure(id)).machineCreated).toBe(true);
      await expect(h.host.readFile(id, 'src/temp.ts')).rejects.toThrow();
    });

    it("reports its machine's state: missing before ensure and after cleanup, a known state between; a malformed id rejects", async () => {
      const id = 'contract-machine';
      expect(await h.host.machineState(id)).toMatchObject({ state: 'missing' });
      await h.host.ensure(id);
      const made = await h.host.machineState(id);
      expect(['running', 'paused', 'stopped']).toContain(made.state);
      expect(typeof made.engine).toBe('string');
      await h.host.cleanup(id);
      expect((await h.host.machineState(id)).state).toBe('missing');
      await expect(h.host.machineState('../escape')).rejects.toThrow();
    });

    it('cleanup of a sandbox that was never made does nothing (account deletion cleans every project)', async () => {
      await expect(h.host.cleanup('contract-never-made')).resolves.toBeUndefined();
      await expect(h.host.cleanup('contract-never-made')).resolves.toBeUndefined();
      expect((await h.host.ensure('contract-never-made')).machineCreated).toBe(true);
    });
  });
}
