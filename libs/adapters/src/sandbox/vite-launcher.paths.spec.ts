// The dev server's error overlay runs inside the previewed app: vite-launcher.mjs makes what it
// shows project-relative. The launcher is plain JavaScript copied into the sandbox; its helpers are
// imported here as the file itself (importing it does not start anything).
import { beforeAll, describe, expect, it } from '@jest/globals';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { VITE_LAUNCHER_RELATIVE_PATH } from './starter-dependency-cache.js';

interface ViteError {
  message?: string;
  stack?: string;
  id?: string;
  frame?: string;
  loc?: { file?: string; line: number; column: number };
  plugin?: string;
}
type Send = (payload: unknown) => void;
interface FakeResponse {
  statusCode: number;
  end: (chunk?: unknown) => unknown;
}
interface Launcher {
  projectRelative(text: unknown, rootDir: string, modulesDir?: string | null): unknown;
  relativeError(err: ViteError, rootDir: string, modulesDir?: string | null): ViteError;
  hideServerPaths(
    server: { environments?: { client?: { hot: { send: Send } } }; ws?: { send: Send }; middlewares: { use(fn: (req: unknown, res: FakeResponse, next: () => void) => void): void } },
    rootDir: string,
    modulesDir?: string | null,
  ): void;
}

let launcher: Launcher;
beforeAll(async () => {
  launcher = (await import(pathToFileURL(path.resolve(process.cwd(), VITE_LAUNCHER_RELATIVE_PATH)).href)) as Launcher;
});

const ROOT = '/srv/kiln/data/projects/3f2a';
const MODULES = '/srv/kiln/data/sandbox-cache/deps-ab12/node_modules';

describe('vite-launcher: project-relative paths in the error overlay', () => {
  it('takes the project folder and the shared dependency tree out of a text', () => {
    expect(launcher.projectRelative(`Failed to resolve import "./Missing" from "${ROOT}/src/App.tsx". Does the file exist?`, ROOT, MODULES)).toBe(
      'Failed to resolve import "./Missing" from "src/App.tsx". Does the file exist?',
    );
    expect(launcher.projectRelative(`at transform (${MODULES}/vite/dist/node/chunks/node.js:12:3)`, ROOT, MODULES)).toBe('at transform (node_modules/vite/dist/node/chunks/node.js:12:3)');
    expect(launcher.projectRelative(`at transform (file://${MODULES}/vite/dist/node/chunks/node.js:12:3)`, ROOT, MODULES)).toBe('at transform (node_modules/vite/dist/node/chunks/node.js:12:3)');
    expect(launcher.projectRelative(`root is ${ROOT}.`, ROOT, MODULES)).toBe('root is ..');
    // Another project whose folder starts with the same characters is not this one.
    expect(launcher.projectRelative(`${ROOT}0/src/App.tsx ${ROOT}.bak/x`, ROOT, MODULES)).toBe(`${ROOT}0/src/App.tsx ${ROOT}.bak/x`);
    expect(launcher.projectRelative(undefined, ROOT)).toBeUndefined();
  });

  it('takes out the dependency tree written relative to the project, as Rolldown names modules ("../../…/node_modules/…")', () => {
    // From the project, or any folder in it: the same way up to the common ancestor, then down.
    const fromRoot = path.relative(ROOT, MODULES);
    expect(fromRoot).toBe('../../sandbox-cache/deps-ab12/node_modules');
    expect(launcher.projectRelative(`"NoSuchIcon" is not exported by "${fromRoot}/lucide-react/dist/esm/lucide-react.mjs".`, ROOT, MODULES)).toBe(
      '"NoSuchIcon" is not exported by "node_modules/lucide-react/dist/esm/lucide-react.mjs".',
    );
    expect(launcher.projectRelative(`from ../../../sandbox-cache/deps-ab12/node_modules/react/index.js and ${fromRoot}`, ROOT, MODULES)).toBe(
      'from node_modules/react/index.js and node_modules',
    );
    // Another tree whose name starts the same is left as it is; so is a plain "../" in a message.
    expect(launcher.projectRelative(`${fromRoot}-old/x ../src/App.tsx`, ROOT, MODULES)).toBe(`${fromRoot}-old/x ../src/App.tsx`);
    // A node_modules folder inside the project needs nothing of this.
    expect(launcher.projectRelative('../x node_modules/react/index.js', ROOT, `${ROOT}/node_modules`)).toBe('../x node_modules/react/index.js');
  });

  it("rewrites every field of Vite's error payload the overlay shows", () => {
    const err = launcher.relativeError(
      {
        message: `${ROOT}/src/App.tsx: Unexpected token (3:5)`,
        stack: `    at parse (${MODULES}/@babel/parser/lib/index.js:1:1)`,
        id: `${ROOT}/src/App.tsx`,
        frame: '1 | export function App() {',
        loc: { file: `${ROOT}/src/App.tsx`, line: 3, column: 5 },
        plugin: 'vite:react-babel',
      },
      ROOT,
      MODULES,
    );
    expect(err).toEqual({
      message: 'src/App.tsx: Unexpected token (3:5)',
      stack: '    at parse (node_modules/@babel/parser/lib/index.js:1:1)',
      id: 'src/App.tsx',
      frame: '1 | export function App() {',
      loc: { file: 'src/App.tsx', line: 3, column: 5 },
      plugin: 'vite:react-babel',
    });
  });

  it('hides server paths in errors sent over HMR and in the error page of a failed request', () => {
    const sent: unknown[] = [];
    const hot = { send: (payload: unknown) => void sent.push(payload) };
    let middleware: ((req: unknown, res: FakeResponse, next: () => void) => void) | null = null;
    launcher.hideServerPaths({ environments: { client: { hot } }, ws: hot, middlewares: { use: (fn) => (middleware = fn) } }, ROOT, MODULES);

    hot.send({ type: 'error', err: { message: `${ROOT}/src/App.tsx: boom`, id: `${ROOT}/src/App.tsx` } });
    hot.send({ type: 'update', updates: [{ path: '/src/App.tsx' }] });
    expect(sent).toEqual([
      { type: 'error', err: { message: 'src/App.tsx: boom', id: 'src/App.tsx', stack: undefined, frame: undefined, loc: undefined } },
      { type: 'update', updates: [{ path: '/src/App.tsx' }] },
    ]);

    const bodies: unknown[] = [];
    const respond = (statusCode: number, body: string) => {
      const res: FakeResponse = { statusCode, end: (chunk) => bodies.push(chunk) };
      middleware?.({}, res, () => undefined);
      res.end(body);
    };
    respond(500, `<script>const error = {"message":"${ROOT}/src/App.tsx: boom","id":"${ROOT}/src/App.tsx"}</script>`);
    respond(200, `// a module that mentions ${ROOT}`);
    expect(bodies).toEqual(['<script>const error = {"message":"src/App.tsx: boom","id":"src/App.tsx"}</script>', `// a module that mentions ${ROOT}`]);
  });
});
