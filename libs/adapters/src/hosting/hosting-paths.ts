import { chmod, lstat, readdir, rm } from 'node:fs/promises';
import path from 'node:path';

/*
 * The hosting folder (docs/hosting.md "Local hosting"):
 *
 *   <hostingRoot>/releases/<projectId>/<releaseId>/   one immutable, read-only build output
 *   <hostingRoot>/hosts/<host>  →  ../releases/<projectId>/<releaseId>   a symbolic link, replaced by rename(2)
 *   <hostingRoot>/release-ids/<releaseId>  →  <projectId>           which project a release is of
 *
 * Nothing from a request or a caller becomes a path before it passed the checks below.
 */

export const RELEASES_DIR = 'releases';
export const HOSTS_DIR = 'hosts';
/** `release-ids/<releaseId>`: a link whose text is the release's project id (a route names only its release). */
export const RELEASE_IDS_DIR = 'release-ids';
/** Names Kiln gives its temporary entries (never a valid host or id: they start with a dot). */
export const TEMP_PREFIX = '.tmp-';

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** A host name as a folder name: lower-case letters, digits and hyphens in dot-separated labels (punycode for IDN). */
export function isValidSiteHost(host: string): boolean {
  if (typeof host !== 'string' || host.length === 0 || host.length > 253) return false;
  return host.split('.').every((label) => LABEL.test(label));
}

/** A project or release id as a folder name. */
export function isValidHostingId(id: string): boolean {
  return typeof id === 'string' && /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/.test(id);
}

/** What a host's pointer holds: the release it serves, relative to the hosts folder. */
export function pointerTarget(projectId: string, releaseId: string): string {
  return `../${RELEASES_DIR}/${projectId}/${releaseId}`;
}

/** The project and release a pointer's text names, or null when it is not one Kiln writes. */
export function parsePointer(target: string): { projectId: string; releaseId: string } | null {
  const parts = target.split('/');
  if (parts.length !== 4 || parts[0] !== '..' || parts[1] !== RELEASES_DIR) return null;
  const [, , projectId, releaseId] = parts as [string, string, string, string];
  return isValidHostingId(projectId) && isValidHostingId(releaseId) ? { projectId, releaseId } : null;
}

/** Removes a tree Kiln made read-only (folders 0555): folders are made writable first, links never followed. */
export async function removeReadOnlyTree(dir: string): Promise<void> {
  const info = await lstat(dir).catch(() => null);
  if (info === null) return;
  if (info.isDirectory()) {
    await chmod(dir, 0o700);
    for (const name of await readdir(dir)) await removeReadOnlyTree(path.join(dir, name));
  }
  await rm(dir, { recursive: true, force: true });
}
