import { execFileSync, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

const HTTP_BACKEND = '/usr/lib/git-core/git-http-backend';

export interface FakeGitServer {
  /** `http://127.0.0.1:<port>`: the test-only origin the importer is told to allow. */
  readonly origin: string;
  /** `<origin>/<name>.git` for a repository made with addRepository. */
  urlOf(name: string): string;
  /** A bare repository `name.git` with one commit holding `files` (path → text or bytes). */
  addRepository(name: string, files: Readonly<Record<string, string | Buffer>>): Promise<void>;
  /** Requests seen, as `METHOD path`. */
  readonly requests: string[];
  close(): Promise<void>;
}

/**
 * A local git server speaking git's real smart-HTTP protocol: a small node http server in front
 * of `git http-backend` (CGI), serving bare repositories from a temporary folder. For the
 * repository import's tests, where no git host can be reached.
 */
export async function startFakeGitServer(): Promise<FakeGitServer> {
  const root = await mkdtemp(path.join(tmpdir(), 'kiln-fake-git-'));
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    requests.push(`${req.method ?? 'GET'} ${url.pathname}`);
    const cgi = spawn(HTTP_BACKEND, [], {
      env: {
        GIT_PROJECT_ROOT: root,
        GIT_HTTP_EXPORT_ALL: '1',
        PATH_INFO: url.pathname,
        QUERY_STRING: url.search.slice(1),
        REQUEST_METHOD: req.method ?? 'GET',
        CONTENT_TYPE: req.headers['content-type'] ?? '',
        ...(req.headers['content-length'] === undefined ? {} : { CONTENT_LENGTH: req.headers['content-length'] }),
        ...(req.headers['git-protocol'] === undefined ? {} : { GIT_PROTOCOL: String(req.headers['git-protocol']) }),
        HTTP_CONTENT_ENCODING: req.headers['content-encoding'] ?? '',
        REMOTE_ADDR: '127.0.0.1',
        SERVER_PROTOCOL: 'HTTP/1.1',
      },
    });
    req.pipe(cgi.stdin);
    let head = Buffer.alloc(0);
    let headersDone = false;
    cgi.stdout.on('data', (chunk: Buffer) => {
      if (headersDone) {
        res.write(chunk);
        return;
      }
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end === -1) return;
      headersDone = true;
      let status = 200;
      for (const line of head.subarray(0, end).toString('latin1').split('\r\n')) {
        const at = line.indexOf(':');
        const name = line.slice(0, at).trim();
        const value = line.slice(at + 1).trim();
        if (name.toLowerCase() === 'status') status = Number.parseInt(value, 10);
        else res.setHeader(name, value);
      }
      res.statusCode = status;
      res.write(head.subarray(end + 4));
    });
    cgi.on('close', () => res.end());
    cgi.on('error', () => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, stdio: 'ignore', env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: root } });
  return {
    origin,
    requests,
    urlOf: (name) => `${origin}/${name}.git`,
    async addRepository(name, files) {
      const work = path.join(root, `${name}-work`);
      git(root, 'init', '-q', '-b', 'main', work);
      for (const [file, content] of Object.entries(files)) {
        execFileSync('mkdir', ['-p', path.dirname(path.join(work, file))]);
        await writeFile(path.join(work, file), content);
      }
      git(work, 'add', '-A');
      git(work, '-c', 'user.name=Fake', '-c', 'user.email=fake@example.com', 'commit', '-q', '-m', 'First');
      git(root, 'clone', '-q', '--bare', work, path.join(root, `${name}.git`));
    },
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(root, { recursive: true, force: true });
    },
  };
}
