import { describe, expect, it } from '@jest/globals';
import type { SandboxDiagnostics } from '../../sandbox/sandbox-diagnostics.port.js';
import { type SandboxRoleHarness, useSandboxHarness } from './sandbox-role-harness.js';

/** A harness for the SandboxDiagnostics suite. */
export type SandboxDiagnosticsHarness = SandboxRoleHarness<SandboxDiagnostics>;

/**
 * The SandboxDiagnostics contract (SPEC §7 find-errors, §8): a scan of no sandbox rejects (the
 * caller answers zero counts). What a real scan finds is the adapters' own tests' business: the
 * in-memory host has no compiler, LocalSandboxHost runs tsc and a Vite build
 * (local-sandbox-host.find-errors.int.spec.ts).
 */
export function sandboxDiagnosticsContract(name: string, makeHarness: () => Promise<SandboxDiagnosticsHarness>): void {
  describe(`SandboxDiagnostics contract: ${name}`, () => {
    let h!: SandboxDiagnosticsHarness;
    const newProject = useSandboxHarness('diagnostics', makeHarness, (ready) => (h = ready));

    it('rejects find-errors for a missing sandbox and a malformed id', async () => {
      await newProject();
      await expect(h.host.findErrors('contract-missing')).rejects.toThrow();
      await expect(h.host.findErrors('../escape')).rejects.toThrow();
    });
  });
}
