import { existsSync, lstatSync, realpathSync, type Stats } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** The uid and gid every sandboxed process runs as, inside its own user namespace. */
export const SANDBOX_UID = 1000;
export const SANDBOX_GID = 1000;
export const SANDBOX_USER = 'kiln';

/** Host folders the runtime needs (read-only): the merged /usr and Debian's top-level links to it. */
const RUNTIME_DIRS = ['/usr', '/bin', '/sbin', '/lib', '/lib64', '/lib32', '/libx32'];
/** The few host files under /etc programs expect (read-only); never passwd, shadow or the rest. */
const RUNTIME_ETC = ['/etc/ld.so.cache', '/etc/ld.so.conf', '/etc/ld.so.conf.d', '/etc/alternatives', '/etc/localtime', '/etc/nsswitch.conf'];
/** Certificates, for npm installs (TLS to the registry through the egress proxy; the proxy resolves names). */
const EGRESS_ETC = ['/etc/ssl', '/etc/ca-certificates'];

export interface JailOptions {
  /** bubblewrap's binary. */
  readonly bwrapPath: string;
  /** A folder of Kiln's (never inside a sandbox) where the generated passwd, group and hosts live. */
  readonly runtimeDir: string;
  /** Extra read-only host folders every sandbox sees (e.g. a Node.js installed outside /usr). */
  readonly extraReadOnly?: readonly string[];
}

export interface JailRequest {
  /** Bound read-write at the same path (the project folder, an install's temporary folder). */
  readonly writable: readonly string[];
  /** Bound read-only at the same path (the dependency tree, Kiln's runtime scripts). */
  readonly readOnly: readonly string[];
  /** Hidden under an empty tmpfs after the binds (a folder inside a read-only bind). */
  readonly hidden?: readonly string[];
  readonly cwd: string;
  /**
   * Always its own network namespace with only loopback. 'egress' (npm installs) adds the
   * certificates npm needs to check the registry through the egress proxy, whose socket folder the
   * caller binds read-only.
   */
  readonly network: 'none' | 'egress';
}

/**
 * bubblewrap's arguments for one sandboxed process (docs/security.md "Project sandboxes"):
 *
 * - its own user namespace, as uid/gid 1000 with every capability dropped, whoever runs Kiln (root
 *   included): it cannot mount, unmount, or change what it sees;
 * - its own mount, PID, IPC, UTS, cgroup and network namespaces (only loopback: never the host's
 *   network), a new session, killed with Kiln;
 * - a filesystem of its own: the runtime (/usr and its links) read-only, a handful of /etc files,
 *   generated passwd/group/hosts, a fresh /dev, /proc and private /tmp, and the folders it is
 *   given. Nothing else of the host exists in it: not /run (Unix sockets), /var, /home, /root,
 *   Kiln's data folder, other projects or Kiln's checkout.
 */
export class BubblewrapJail {
  private prepared: Promise<void> | undefined;
  private readonly runtimeBinds: readonly string[];

  constructor(private readonly options: JailOptions) {
    this.runtimeBinds = runtimeBinds(options.extraReadOnly ?? []);
  }

  get bwrapPath(): string {
    return this.options.bwrapPath;
  }

  /** The arguments after `bwrap` and before `--`. */
  async args(request: JailRequest): Promise<string[]> {
    await this.prepare();
    const etc = (file: string) => ['--ro-bind', path.join(this.options.runtimeDir, file), `/etc/${file}`];
    const hostEtc = [...RUNTIME_ETC, ...(request.network === 'egress' ? EGRESS_ETC : [])].filter((p) => existsSync(p));
    // Shallow before deep, so a bind never hides another.
    const binds = [
      ...request.readOnly.map((p) => ({ p, flag: '--ro-bind' })),
      ...request.writable.map((p) => ({ p, flag: '--bind' })),
    ].sort((a, b) => a.p.length - b.p.length);
    return [
      '--unshare-all',
      '--unshare-user',
      '--uid', String(SANDBOX_UID),
      '--gid', String(SANDBOX_GID),
      '--cap-drop', 'ALL',
      '--hostname', 'sandbox',
      '--die-with-parent',
      '--new-session',
      ...this.runtimeBinds,
      ...hostEtc.flatMap((p) => ['--ro-bind', p, p]),
      ...etc('passwd'),
      ...etc('group'),
      ...etc('hosts'),
      '--dev', '/dev',
      '--proc', '/proc',
      '--tmpfs', '/tmp',
      ...binds.flatMap(({ p, flag }) => [flag, p, p]),
      ...(request.hidden ?? []).flatMap((p) => ['--tmpfs', p]),
      // The sandbox's own root (the folders bubblewrap made for the mounts) read-only too.
      '--remount-ro', '/',
      '--chdir', request.cwd,
    ]; // prettier-ignore
  }

  /** Writes the generated /etc files once. */
  private prepare(): Promise<void> {
    this.prepared ??= (async () => {
      const dir = this.options.runtimeDir;
      await mkdir(dir, { recursive: true, mode: 0o755 });
      await writeFile(
        path.join(dir, 'passwd'),
        `root:x:0:0:root:/nonexistent:/usr/sbin/nologin\n${SANDBOX_USER}:x:${SANDBOX_UID}:${SANDBOX_GID}:Kiln sandbox:/tmp:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n`,
        { mode: 0o644 },
      );
      await writeFile(path.join(dir, 'group'), `root:x:0:\n${SANDBOX_USER}:x:${SANDBOX_GID}:\nnogroup:x:65534:\n`, { mode: 0o644 });
      await writeFile(path.join(dir, 'hosts'), '127.0.0.1 localhost sandbox\n::1 localhost ip6-localhost ip6-loopback\n', { mode: 0o644 });
    })();
    return this.prepared;
  }
}

/** /usr read-only; the top-level links of a merged-/usr system stay links, real folders are bound. */
function runtimeBinds(extra: readonly string[]): string[] {
  const out: string[] = [];
  for (const dir of RUNTIME_DIRS) {
    const info = lstatOrNull(dir);
    if (info === null) continue;
    if (info.isSymbolicLink()) out.push('--symlink', path.relative('/', realpathSync(dir)), dir);
    else if (info.isDirectory()) out.push('--ro-bind', dir, dir);
  }
  // Node.js itself, when it is installed outside /usr (nvm, /opt, /usr/local is inside /usr).
  const node = path.dirname(path.dirname(realpathSync(process.execPath)));
  const extras = [...extra, ...(isWithin('/usr', node) ? [] : [node])];
  for (const dir of extras) out.push('--ro-bind', dir, dir);
  return out;
}

function isWithin(root: string, p: string): boolean {
  const rel = path.relative(root, p);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

function lstatOrNull(p: string): Stats | null {
  try {
    return lstatSync(p);
  } catch {
    return null;
  }
}
