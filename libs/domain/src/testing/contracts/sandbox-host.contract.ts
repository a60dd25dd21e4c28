import type { SandboxHost } from '../../sandbox/sandbox-host.port.js';
import { sandboxCommandsContract } from './sandbox-commands.contract.js';
import { sandboxDevServerContract } from './sandbox-dev-server.contract.js';
import { sandboxDiagnosticsContract } from './sandbox-diagnostics.contract.js';
import { sandboxFileActionsContract } from './sandbox-file-actions.contract.js';
import { sandboxFilesContract } from './sandbox-files.contract.js';
import { sandboxLifecycleContract } from './sandbox-lifecycle.contract.js';
import type { SandboxRoleHarness } from './sandbox-role-harness.js';
import { sandboxVersionsContract } from './sandbox-versions.contract.js';

export type SandboxHostHarness = SandboxRoleHarness<SandboxHost>;

/**
 * The whole SandboxHost contract (SPEC §7 Sandbox, §8, §9): every role's suite, each with a harness
 * of its own (makeHarness is called once per role). An adapter playing fewer roles calls those
 * suites alone.
 */
export function sandboxHostContract(name: string, makeHarness: () => Promise<SandboxHostHarness>): void {
  sandboxLifecycleContract(name, makeHarness);
  sandboxFilesContract(name, makeHarness);
  sandboxFileActionsContract(name, makeHarness);
  sandboxCommandsContract(name, makeHarness);
  sandboxVersionsContract(name, makeHarness);
  sandboxDiagnosticsContract(name, makeHarness);
  sandboxDevServerContract(name, makeHarness);
}
