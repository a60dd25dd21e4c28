import 'reflect-metadata';
import { describe, expect, it } from '@jest/globals';
import { THEME_PRESETS, type Theme } from '@kiln/domain';
import type { DownloadHttpClient, HttpClient, RequestOptions } from '../app/ports';
import { HttpSandboxApi, sandboxPath } from './sandbox.api';

/** Records each call and answers with `reply`. */
class RecordingHttp implements HttpClient {
  readonly calls: [string, string, unknown?][] = [];
  reply: unknown = {};
  async get<T>(path: string, _options?: RequestOptions): Promise<T> {
    this.calls.push(['GET', path]);
    return this.reply as T;
  }
  async post<T>(path: string, body?: unknown): Promise<T> {
    this.calls.push(['POST', path, body]);
    return this.reply as T;
  }
  async patch<T>(path: string, body?: unknown): Promise<T> {
    this.calls.push(['PATCH', path, body]);
    return this.reply as T;
  }
  async delete<T>(path: string): Promise<T> {
    this.calls.push(['DELETE', path]);
    return this.reply as T;
  }
}

/** Records downloads and answers a tiny zip. */
class RecordingDownloads implements DownloadHttpClient {
  readonly paths: string[] = [];
  async download(path: string): Promise<Blob> {
    this.paths.push(path);
    return new Blob(['PK']);
  }
}

describe('HttpSandboxApi', () => {
  it('calls every route of docs/sandbox-api.md', async () => {
    const http = new RecordingHttp();
    const api = new HttpSandboxApi(http, new RecordingDownloads());
    const id = 'p1';
    http.reply = { path: 'a', content: 'text' };
    await expect(api.readFile(id, 'src/a b.ts')).resolves.toBe('text');
    http.reply = {};
    await api.ensure(id);
    await api.info(id);
    await api.writeFile(id, 'x.ts', '1');
    await api.deleteFile(id, 'x.ts');
    await api.readDirectory(id, '.', { includeContents: false, ignorePatterns: ['node_modules', '*.log'] });
    await api.getTree(id);
    await api.getTree(id, 'src', ['dist']);
    await api.runCommand(id, { command: 'ls', command_id: 'c1' });
    await api.createDirectory(id, 'src/new');
    await api.cleanup(id);
    await api.gitCommit(id, 'msg');
    await api.gitHistory(id);
    await api.gitRestore(id, 'abc');
    await api.findErrors(id);
    await api.restartDev(id);
    const theme = THEME_PRESETS[0] as Theme;
    await api.applyTheme(id, theme);

    expect(http.calls).toEqual([
      ['GET', '/api/sandbox/p1/read-file?path=src%2Fa+b.ts'],
      ['POST', '/api/sandbox/p1/ensure', undefined],
      ['GET', '/api/sandbox/p1/info'],
      ['POST', '/api/sandbox/p1/write-file', { path: 'x.ts', content: '1' }],
      ['DELETE', '/api/sandbox/p1/delete-file?path=x.ts'],
      ['GET', '/api/sandbox/p1/read-directory?path=.&include_contents=false&ignore_patterns=node_modules%2C*.log'],
      ['GET', '/api/sandbox/p1/get-tree?path=.'],
      ['GET', '/api/sandbox/p1/get-tree?path=src&ignore=dist'],
      ['POST', '/api/sandbox/p1/run-command', { command: 'ls', command_id: 'c1' }],
      ['POST', '/api/sandbox/p1/create-directory', { path: 'src/new' }],
      ['DELETE', '/api/sandbox/p1/cleanup'],
      ['POST', '/api/sandbox/p1/git/commit', { message: 'msg' }],
      ['GET', '/api/sandbox/p1/git/history'],
      ['POST', '/api/sandbox/p1/git/restore', { commitHash: 'abc' }],
      ['POST', '/api/sandbox/p1/find-errors', {}],
      ['POST', '/api/sandbox/p1/restart-dev', undefined],
      ['POST', '/api/sandbox/p1/apply-theme', theme],
    ]);
  });

  it("calls the file tree's actions, each tried once, and downloads the zip", async () => {
    const http = new RecordingHttp();
    const downloads = new RecordingDownloads();
    const api = new HttpSandboxApi(http, downloads);
    await api.newFile('p1', 'src/a.ts');
    await api.newFolder('p1', 'src/ui');
    await api.rename('p1', 'src/a.ts', 'src/ui/a.ts');
    await api.deletePath('p1', 'src/ui');
    await api.cleanUp('p1');
    expect(await (await api.exportZip('p1')).text()).toBe('PK');
    expect(http.calls).toEqual([
      ['POST', '/api/sandbox/p1/actions/new-file', { path: 'src/a.ts' }],
      ['POST', '/api/sandbox/p1/actions/new-folder', { path: 'src/ui' }],
      ['POST', '/api/sandbox/p1/actions/rename', { from: 'src/a.ts', to: 'src/ui/a.ts' }],
      ['POST', '/api/sandbox/p1/actions/delete', { path: 'src/ui' }],
      ['POST', '/api/sandbox/p1/actions/clean-up', undefined],
    ]);
    expect(downloads.paths).toEqual(['/api/sandbox/p1/export.zip']);
  });

  it('encodes the project id', () => {
    expect(sandboxPath('a/b', 'info')).toBe('/api/sandbox/a%2Fb/info');
  });
});
