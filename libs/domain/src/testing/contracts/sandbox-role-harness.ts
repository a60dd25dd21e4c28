import { afterAll, beforeAll } from '@jest/globals';
import type { SandboxLifecycle } from '../../sandbox/sandbox-lifecycle.port.js';

/**
 * What a sandbox role's contract suite runs against: a host playing that role, and the lifecycle
 * every suite needs to make its projects (ensure) and to stop the host afterwards (stopAll).
 */
export interface SandboxRoleHarness<Role> {
  readonly host: SandboxLifecycle & Role;
  /** False for a host that cannot run processes (commands then answer a clear failed result). */
  readonly runsCommands: boolean;
  close?(): Promise<void>;
}

/** Awaits the promise and answers the `code` it rejected with (undefined when it resolved). */
export async function rejectionCode(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
    return undefined;
  } catch (e) {
    return (e as { code?: string }).code ?? 'UNCODED';
  }
}

/**
 * Inside a role suite's describe: makes the harness before its tests (a real host may install the
 * starter's dependencies first, once per template version) and stops it after them. `ready` gets
 * the harness; the answer makes a fresh project (`contract-<role>-<n>`) in it.
 */
export function useSandboxHarness<Role>(
  role: string,
  makeHarness: () => Promise<SandboxRoleHarness<Role>>,
  ready: (harness: SandboxRoleHarness<Role>) => void,
): () => Promise<string> {
  let h: SandboxRoleHarness<Role> | undefined;
  let n = 0;
  beforeAll(async () => {
    h = await makeHarness();
    ready(h);
  }, 180_000);
  afterAll(async () => {
    await h?.host.stopAll();
    await h?.close?.();
  }, 30_000);
  return async () => {
    const id = `contract-${role}-${++n}`;
    await (h as SandboxRoleHarness<Role>).host.ensure(id);
    return id;
  };
}
