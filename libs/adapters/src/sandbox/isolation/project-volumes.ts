import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, rm, rmdir } from 'node:fs/promises';
import path from 'node:path';
import { KeyedQueue } from '../keyed-queue.js';
import { isAlive } from './process-alive.js';

const MKFS = '/usr/sbin/mkfs.ext4';
const MOUNT = '/usr/bin/mount';
const UMOUNT = '/usr/bin/umount';
/** A new spare image is made this long after one was used (not while that project's Vite starts). */
const SPARE_DELAY_MS = 2_000;
const SPARE_PREFIX = '.spare-';

/**
 * The project folder's size limit, enforced by the kernel: each project folder is the mount point
 * of its own ext4 file system, a sparse image file (`<volumesDir>/<id>.img`, as big as the disk
 * limit, taking only what is used) mounted through a loop device, nosuid and nodev. A write past
 * the limit fails with ENOSPC, whoever writes: a command, a dev server's config, the build, or the
 * file API. It needs root (mount) and loop devices; `available()` says whether this machine has them
 * (otherwise LocalSandboxHost falls back to the disk watch, and docs/security.md says so).
 *
 * A folder that exists without a volume (made before volumes, or by a host without them) is moved
 * into a new volume on first use. Volumes stay mounted while Kiln runs and are unmounted by
 * `unmountAll` (shutdown); a volume left mounted by a crash is reused.
 *
 * One empty image is kept ready (`.spare-<pid>.img`): a new project takes it with a rename, so
 * making the file system (most of a volume's cost) is not part of creating a project.
 */
export class ProjectVolumes {
  private readonly mounted = new Set<string>();
  private readonly queue = new KeyedQueue();
  /** The ready spare image (its path), being made, or none. */
  private spare: Promise<string | null> | null = null;
  private spareTimer: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(private readonly options: { readonly volumesDir: string; readonly sizeBytes: number; readonly keepSpare?: boolean }) {}

  /** Whether this machine can make and mount volumes (root, mkfs.ext4, loop devices): tried for real once. */
  static async available(scratchDir: string): Promise<boolean> {
    if (process.getuid?.() !== 0 || !existsSync(MKFS) || !existsSync('/dev/loop-control')) return false;
    const probe = new ProjectVolumes({ volumesDir: path.join(scratchDir, 'probe-volumes'), sizeBytes: 16 * 1024 * 1024, keepSpare: false });
    const dir = path.join(scratchDir, `probe-${process.pid}`);
    try {
      await mkdir(dir, { recursive: true });
      await probe.ensureMounted(dir);
      await probe.remove(dir);
      return true;
    } catch {
      await run(UMOUNT, ['-l', dir]).catch(() => undefined);
      return false;
    } finally {
      await rm(dir, { recursive: true, force: true }).catch(() => undefined);
      await rm(path.join(scratchDir, 'probe-volumes'), { recursive: true, force: true }).catch(() => undefined);
    }
  }

  /**
   * Makes `dir` the mount point of its project's volume (creating the volume, or moving an
   * existing folder's files into a new one). `dir` need not exist yet. One call at a time per folder.
   */
  ensureMounted(dir: string): Promise<void> {
    if (this.mounted.has(dir)) return Promise.resolve();
    return this.queue.run(dir, async () => {
      if (this.mounted.has(dir)) return;
      if (await isMountPoint(dir)) {
        this.mounted.add(dir);
        return;
      }
      const image = this.imageFor(dir);
      if (!existsSync(image)) await this.newImage(image);
      const existing = await readdir(dir).catch(() => null);
      if (existing !== null && existing.length > 0) {
        await this.migrate(dir, image);
      } else {
        await mkdir(dir, { recursive: true });
        await run(MOUNT, ['-o', 'loop,nosuid,nodev', image, dir]);
      }
      this.mounted.add(dir);
    });
  }

  /**
   * Gives `from`'s volume (mounted) to `to`, a folder that must not exist yet: a bind mount at `to`,
   * then `from` unmounted and removed, and the image renamed. Processes that see the file system
   * through `from`'s mount in their own namespace (a warm dev server) keep seeing the same files.
   */
  moveTo(from: string, to: string): Promise<void> {
    return this.queue.run(from, () =>
      this.queue.run(to, async () => {
        if (!this.mounted.has(from)) throw new Error(`No volume mounted at ${from}`);
        await mkdir(to);
        try {
          await run(MOUNT, ['--bind', from, to]);
        } catch (e) {
          await rmdir(to).catch(() => undefined);
          throw e;
        }
        this.mounted.add(to);
        this.mounted.delete(from);
        await rename(this.imageFor(from), this.imageFor(to));
        await run(UMOUNT, [from]).catch(() => run(UMOUNT, ['-l', from]));
        await rmdir(from).catch(() => undefined);
      }),
    );
  }

  /** Unmounts the folder's volume and deletes it (the project is removed). */
  remove(dir: string): Promise<void> {
    return this.queue.run(dir, async () => {
      await this.unmount(dir);
      await rm(this.imageFor(dir), { force: true });
    });
  }

  /** Unmounts every volume this process mounted (shutdown); their files stay in the images. */
  async unmountAll(): Promise<void> {
    this.closed = true;
    if (this.spareTimer !== null) clearTimeout(this.spareTimer);
    const spare = await this.spare?.catch(() => null);
    this.spare = null;
    if (spare) await rm(spare, { force: true });
    await Promise.all([...this.mounted].map((dir) => this.queue.run(dir, () => this.unmount(dir))));
  }

  /** The spare image renamed into place when one is ready, else a new one; then the next spare is scheduled. */
  private async newImage(image: string): Promise<void> {
    const spare = this.spare === null ? null : await this.spare.catch(() => null);
    this.spare = null;
    if (spare === null || !(await rename(spare, image).then(() => true, () => false))) await this.create(image);
    this.scheduleSpare();
  }

  private scheduleSpare(): void {
    if (this.options.keepSpare === false || this.closed || this.spare !== null || this.spareTimer !== null) return;
    this.spareTimer = setTimeout(() => {
      this.spareTimer = null;
      // Gone with its owner (a test's temporary folder): nothing to keep a spare for.
      if (this.closed || this.spare !== null || !existsSync(this.options.volumesDir)) return;
      const spare = path.join(this.options.volumesDir, `${SPARE_PREFIX}${process.pid}.img`);
      // A failure leaves no spare: the next project makes its image itself (and reports the error).
      this.spare = this.removeStaleSpares()
        .then(() => this.create(spare))
        .then(() => spare, () => null);
    }, SPARE_DELAY_MS);
    this.spareTimer.unref();
  }

  /** Spares of processes that are gone (a crash): each is a whole empty file system's worth of metadata. */
  private async removeStaleSpares(): Promise<void> {
    const names = await readdir(this.options.volumesDir).catch(() => [] as string[]);
    for (const name of names) {
      const pid = Number(/^\.spare-(\d+)\.img(\.\d+\.tmp)?$/.exec(name)?.[1]);
      if (Number.isInteger(pid) && pid > 0 && !isAlive(pid)) await rm(path.join(this.options.volumesDir, name), { force: true });
    }
  }

  private async unmount(dir: string): Promise<void> {
    this.mounted.delete(dir);
    // Lazy: a process that still has its cwd in it (being killed) does not keep it mounted.
    if (await isMountPoint(dir)) await run(UMOUNT, ['-l', dir]);
  }

  private imageFor(dir: string): string {
    return path.join(this.options.volumesDir, `${path.basename(dir)}.img`);
  }

  /** A sparse image with an ext4 file system: no journal (a sandbox's files are not a database), no reserved blocks. */
  private async create(image: string): Promise<void> {
    await mkdir(this.options.volumesDir, { recursive: true, mode: 0o700 });
    const temp = `${image}.${process.pid}.tmp`;
    const handle = await open(temp, 'w', 0o600);
    try {
      await handle.truncate(this.options.sizeBytes);
    } finally {
      await handle.close();
    }
    await run(MKFS, ['-q', '-F', '-m', '0', '-O', '^has_journal', '-E', 'root_owner=0:0', temp]);
    // ext4's lost+found would show in every project's files.
    const scratch = `${temp}.mnt`;
    await mkdir(scratch);
    await run(MOUNT, ['-o', 'loop,nosuid,nodev', temp, scratch]);
    try {
      await rmdir(path.join(scratch, 'lost+found')).catch(() => undefined);
    } finally {
      await run(UMOUNT, [scratch]);
      await rmdir(scratch);
    }
    await rename(temp, image);
  }

  /** An existing folder's files go into the new volume, which then takes the folder's place. */
  private async migrate(dir: string, image: string): Promise<void> {
    const staging = `${dir}.volume-${process.pid}`;
    await mkdir(staging, { recursive: true });
    await run(MOUNT, ['-o', 'loop,nosuid,nodev', image, staging]);
    try {
      // cp -a keeps links as links and the files' modes; a project over the limit fails here (ENOSPC).
      await run('/usr/bin/cp', ['-a', '--no-dereference', `${dir}/.`, `${staging}/`]);
    } finally {
      await run(UMOUNT, [staging]);
      await rmdir(staging);
    }
    const old = `${dir}.before-volume-${process.pid}`;
    await rename(dir, old);
    await mkdir(dir);
    await run(MOUNT, ['-o', 'loop,nosuid,nodev', image, dir]);
    await rm(old, { recursive: true, force: true });
  }
}

async function isMountPoint(dir: string): Promise<boolean> {
  const info = await readFile('/proc/self/mountinfo', 'utf8').catch(() => '');
  // Field 5 is the mount point, with spaces and the like escaped as octal.
  return info.split('\n').some((line) => line.split(' ')[4]?.replace(/\\(\d{3})/g, (_, o: string) => String.fromCharCode(parseInt(o, 8))) === dir);
}

function run(file: string, args: readonly string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(file, args, { timeout: 60_000, env: { PATH: '/usr/sbin:/usr/bin:/sbin:/bin', LANG: 'C' } }, (error, _stdout, stderr) => {
      if (error) reject(new Error(`${path.basename(file)} failed: ${(stderr || error.message).trim().slice(0, 500)}`));
      else resolve();
    });
  });
}
