import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** s3rver's fixed credentials (it checks SigV4 signatures against them). */
export const LOCAL_S3_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } as const;

/**
 * Runs in the child: s3rver on a random port, its port on stdout, gone when the parent's pipe
 * closes (a test process that dies leaves no server behind).
 */
const CHILD = `
const S3rver = require(process.argv[1]);
const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: process.argv[2], configureBuckets: JSON.parse(process.argv[3]).map((name) => ({ name })) });
server.run().then(({ port }) => process.stdout.write('port ' + port + '\\n'), (error) => { console.error(error); process.exit(1); });
const stop = () => server.close().finally(() => process.exit(0));
process.stdin.on('end', stop);
process.stdin.resume();
process.on('SIGTERM', stop);
`;

/**
 * A local S3-compatible server (s3rver 3.7.1, from npm) on a random port, its buckets under a
 * temporary folder, for the S3 adapter's tests; stop() removes everything.
 *
 * It runs in a child process with `--openssl-legacy-provider`: s3rver's ListObjectsV2
 * continuation tokens are DES-encrypted, which OpenSSL 3 (Node 17+) only offers through the
 * legacy provider; without it every second page of a listing fails with a 500.
 */
export class LocalS3Server {
  private child: ChildProcess | null = null;
  private dir: string | null = null;
  endpoint = '';

  constructor(private readonly buckets: readonly string[]) {}

  async start(): Promise<this> {
    this.dir = await mkdtemp(path.join(tmpdir(), 'kiln-s3rver-'));
    const entry = createRequire(path.join(process.cwd(), 'index.js')).resolve('s3rver');
    const child = spawn(process.execPath, ['--openssl-legacy-provider', '-e', CHILD, entry, this.dir, JSON.stringify(this.buckets)], { stdio: ['pipe', 'pipe', 'pipe'] });
    this.child = child;
    const port = await new Promise<number>((resolve, reject) => {
      let out = '';
      let err = '';
      child.stdout?.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const found = /port (\d+)/.exec(out);
        if (found) resolve(Number(found[1]));
      });
      child.stderr?.on('data', (chunk: Buffer) => {
        err += chunk.toString();
      });
      child.once('exit', (code) => reject(new Error(`s3rver exited (${code}) before listening: ${err.slice(0, 2000)}`)));
      child.once('error', reject);
    });
    this.endpoint = `http://127.0.0.1:${port}`;
    return this;
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (child && child.exitCode === null) {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.stdin?.end();
      await exited;
    }
    if (this.dir) await rm(this.dir, { recursive: true, force: true });
  }
}
