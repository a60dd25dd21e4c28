import path from 'node:path';
import { installRuntimeScript } from '../runtime-script.js';

/** The forwarder npm runs under inside an install's network namespace (see the script's header). */
export const EGRESS_FORWARDER_RELATIVE_PATH = 'libs/adapters/src/sandbox/runtime/egress-forwarder.mjs';

/**
 * The forwarder copied into `<cacheDir>/runtime/` (content-addressed), where a sandbox can be given
 * it read-only; answers the copy's path. `sourceFile` defaults to the checkout's script, relative
 * to the API's working folder like the Vite launcher.
 */
export function installEgressForwarder(cacheDir: string, sourceFile = path.resolve(EGRESS_FORWARDER_RELATIVE_PATH)): Promise<string> {
  return installRuntimeScript(cacheDir, sourceFile, 'egress-forwarder');
}

export interface EgressForwarderPaths {
  /** The forwarder script as the sandbox sees it. */
  readonly forwarder: string;
  /** The egress proxy's Unix socket as the sandbox sees it. */
  readonly socketPath: string;
  /** Node inside the sandbox; default the API's own (the runtime is bound read-only). */
  readonly node?: string;
}

/**
 * npm's argument vector run through the forwarder: npm then reaches the registry, and only the
 * registry, through the egress proxy's socket, from a namespace without any other network.
 */
export function throughEgressForwarder(npmArgv: readonly string[], { forwarder, socketPath, node = process.execPath }: EgressForwarderPaths): string[] {
  if (npmArgv.length === 0) throw new Error('No command to run through the egress forwarder');
  return [node, forwarder, socketPath, '--', ...npmArgv];
}
