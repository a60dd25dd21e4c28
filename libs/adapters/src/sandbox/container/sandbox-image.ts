import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type Dockerode from 'dockerode';

/** Where the image's recipe lives in the repository (tools/sandbox-image/README.md). */
export const SANDBOX_IMAGE_RELATIVE_DIR = 'tools/sandbox-image';
const RECIPE_FILES = ['recipe', 'build.sh', 'sandbox-supervisor.mjs'];

export interface SandboxImageOptions {
  readonly docker: Dockerode;
  /** How `build.sh` reaches the same engine (the docker CLI's DOCKER_HOST). */
  readonly dockerHost: string;
  /** An image an operator built from the same recipe and pushed to a registry (SANDBOX_IMAGE); pulled when missing. */
  readonly image?: string;
  /** The recipe's folder; default `<cwd>/tools/sandbox-image`. */
  readonly recipeDir?: string;
}

/**
 * Kiln's sandbox image: `kiln-sandbox:<version>`, the version a hash of the recipe and of the
 * node and git it copies, so it is built (by build.sh, with `docker import`) only when one of them
 * changed. An operator's SANDBOX_IMAGE is used as it is.
 */
export class SandboxImage {
  private ready: Promise<string> | undefined;

  constructor(private readonly options: SandboxImageOptions) {}

  /** The image's tag, built or pulled first when the engine does not have it. */
  tag(): Promise<string> {
    this.ready ??= this.prepare();
    this.ready.catch(() => (this.ready = undefined));
    return this.ready;
  }

  /** The version tag this checkout's recipe builds. */
  async versionTag(): Promise<string> {
    const hash = createHash('sha256');
    for (const file of RECIPE_FILES) hash.update(await readFile(path.join(this.recipeDir(), file)));
    hash.update(process.version);
    hash.update(await run('git', ['--version'], {}));
    return `kiln-sandbox:${hash.digest('hex').slice(0, 12)}`;
  }

  private async prepare(): Promise<string> {
    const wanted = this.options.image ?? (await this.versionTag());
    if (await this.has(wanted)) return wanted;
    if (this.options.image !== undefined) {
      const stream = await this.options.docker.pull(wanted);
      await new Promise((resolve, reject) => this.options.docker.modem.followProgress(stream, (e) => (e ? reject(e) : resolve(undefined))));
      return wanted;
    }
    await run('bash', [path.join(this.recipeDir(), 'build.sh'), wanted], { DOCKER_HOST: this.options.dockerHost });
    return wanted;
  }

  private has(tag: string): Promise<boolean> {
    return this.options.docker
      .getImage(tag)
      .inspect()
      .then(
        () => true,
        () => false,
      );
  }

  private recipeDir(): string {
    return path.resolve(this.options.recipeDir ?? path.join(process.cwd(), SANDBOX_IMAGE_RELATIVE_DIR));
  }
}

function run(file: string, args: readonly string[], env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(file, args, { env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', ...env }, timeout: 10 * 60_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${file} ${args.join(' ')} failed: ${stderr.trim() || error.message}`));
      else resolve(stdout);
    });
  });
}
