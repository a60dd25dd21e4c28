import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * One dependency cache for every sandbox test and every run (the installed tree is keyed by the
 * starter's package.json hash inside it), so only the very first run pays for npm install.
 */
export const TEST_SANDBOX_CACHE_DIR = path.join(tmpdir(), 'kiln-sandbox-cache-test');

/** A fresh sandboxes folder under the system temp folder, removed by `close`. */
export async function tempSandboxRoot(prefix = 'kiln-sandboxes-'): Promise<{ root: string; close: () => Promise<void> }> {
  const root = await mkdtemp(path.join(tmpdir(), prefix));
  return { root, close: () => rm(root, { recursive: true, force: true }) };
}
