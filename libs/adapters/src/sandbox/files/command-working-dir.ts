import { lstat, realpath } from 'node:fs/promises';
import path from 'node:path';
import { isWithinRoot, resolveSandboxPath, SandboxPathRefused, sandboxPathOutside } from '@kiln/domain';

/**
 * The absolute path of a command's working folder `requested` in the project folder `dir`: the
 * domain rule first, then the deepest part that exists on disk is realpath'd and must still be
 * inside the project (symlinks pointing out are refused). Check-then-use: only a command's
 * working folder uses it (bubblewrap enters it inside the sandbox); the file routes never do
 * (ProjectFiles).
 */
export async function commandWorkingDir(dir: string, requested: string): Promise<string> {
  const relative = resolveSandboxPath(requested);
  if (!relative.ok) throw new SandboxPathRefused(relative.error);
  let probe = relative.value === '.' ? dir : path.join(dir, relative.value);
  let suffix = '';
  for (;;) {
    try {
      const real = await realpath(probe);
      if (!isWithinRoot(dir, real)) throw new SandboxPathRefused(sandboxPathOutside(requested, 'symlink-outside'));
      return suffix === '' ? real : path.join(real, suffix);
    } catch (e) {
      if (e instanceof SandboxPathRefused) throw e;
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw e;
      // A dangling symlink is refused outright: writing through it could land anywhere.
      if ((await lstat(probe).catch(() => null))?.isSymbolicLink() === true) {
        throw new SandboxPathRefused(sandboxPathOutside(requested, 'symlink-outside'));
      }
      if (probe === dir) throw e;
      suffix = suffix === '' ? path.basename(probe) : path.join(path.basename(probe), suffix);
      probe = path.dirname(probe);
    }
  }
}
