import { existsSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DEFAULT_BWRAP_PATH } from './local-sandbox-host.adapter.js';
import { APP_WITH_TYPE_ERROR, CountingHost } from './testing/find-errors-fixtures.js';
import { TEST_SANDBOX_CACHE_DIR, tempSandboxRoot } from './testing/sandbox-test-dirs.js';
import { getOverSocket } from './testing/unix-http.js';
import { waitFor } from './testing/wait-for.js';

const label = existsSync(DEFAULT_BWRAP_PATH) ? 'in bubblewrap' : 'without bubblewrap';



describe(`LocalSandboxHost find-errors answered by the running dev server, warm (${label})`, () => {
  let close: () => Promise<void>;
  let root: string;
  let host: CountingHost;
  let n = 0;
  /** A project whose dev server runs (as while someone has the builder open). */
  const running = async () => {
    const id = `warm-${++n}`;
    await host.ensure(id);
    await host.devServer(id);
    await waitFor('the dev server', async () => ((await host.devServer(id)).status === 'running' ? true : undefined), 60_000);
    return id;
  };
  /** When the last build wrote the app (the build's output is made anew each time). */
  const builtAt = async (id: string) => (await stat(path.join(root, id, '.kiln-build', 'dist', 'index.html'))).mtimeMs;

  beforeAll(async () => {
    ({ root, close } = await tempSandboxRoot());
    host = new CountingHost({ root, cacheDir: TEST_SANDBOX_CACHE_DIR });
    await host.prepareTemplate();
  }, 120_000);
  afterAll(async () => {
    await host.stopAll();
    await close();
  });

  it('reports a type error as tsc does, with no new process, and its fix', async () => {
    const id = await running();
    await host.writeFile(id, 'src/App.tsx', APP_WITH_TYPE_ERROR);
    const before = host.commands;
    expect(await host.findErrors(id)).toEqual({
      errors: [{ message: "Type 'string' is not assignable to type 'number'.", file: 'src/App.tsx', line: 2, column: 9, severity: 'error' }],
      errorCount: 1,
      warningCount: 0,
    });
    await host.writeFile(id, 'src/App.tsx', APP_WITH_TYPE_ERROR.replace("'three'", '3'));
    expect(await host.findErrors(id)).toEqual({ errors: [], errorCount: 0, warningCount: 0 });
    expect(host.commands).toBe(before);
  }, 90_000);

  it('skips the build for TypeScript, stylesheet and index.html changes it can vouch for, and builds for the rest', async () => {
    const id = await running();
    await host.writeFile(id, 'src/App.tsx', APP_WITH_TYPE_ERROR.replace("'three'", '1'));
    expect((await host.findErrors(id)).errorCount).toBe(0); // builds: the baseline
    const baseline = await builtAt(id);
    // TypeScript (the type-check vouches), a stylesheet and index.html (the dev server transforms them).
    await host.writeFile(id, 'src/App.tsx', APP_WITH_TYPE_ERROR.replace("'three'", '2'));
    await host.writeFile(id, 'src/lib/extra.ts', 'export const extra = 2;\n');
    const css = await host.readFile(id, 'src/index.css');
    await host.writeFile(id, 'src/index.css', `${css}\n.extra { color: red; }\n`);
    const html = await host.readFile(id, 'index.html');
    await host.writeFile(id, 'index.html', html.replace(/<title>[^<]*<\/title>/, '<title>Renamed</title>'));
    expect(await host.findErrors(id)).toEqual({ errors: [], errorCount: 0, warningCount: 0 });
    expect(await builtAt(id)).toBe(baseline); // vouched: not built again
    // A stylesheet the dev server cannot transform: the build runs and reports it.
    await host.writeFile(id, 'src/index.css', `${css}\n.broken { @apply not-a-utility-class; }\n`);
    const broken = await host.findErrors(id);
    expect(broken.errorCount).toBeGreaterThan(0);
    expect(broken.errors[0]?.message).toMatch(/not-a-utility-class/);
    // index.html loading a script that is not there: the build runs and reports it.
    await host.writeFile(id, 'src/index.css', css);
    await host.writeFile(id, 'index.html', html.replace('/src/main.tsx', '/src/missing.tsx'));
    expect((await host.findErrors(id)).errorCount).toBeGreaterThan(0);
    // A Vite config change is always built.
    await host.writeFile(id, 'index.html', html);
    const config = await host.readFile(id, 'vite.config.ts');
    await host.writeFile(id, 'vite.config.ts', `${config}\n// changed\n`);
    expect((await host.findErrors(id)).errorCount).toBe(0);
    expect(await builtAt(id)).toBeGreaterThan(baseline);
  }, 120_000);

  it('still builds for an import only the build can check (a missing stylesheet), with its position', async () => {
    const id = await running();
    expect((await host.findErrors(id)).errorCount).toBe(0);
    const app = await host.readFile(id, 'src/App.tsx');
    await host.writeFile(id, 'src/App.tsx', `import './missing-styles.css';\n${app}`);
    const scan = await host.findErrors(id);
    expect(scan.errors).toEqual([{ message: "Could not resolve './missing-styles.css' in src/App.tsx", file: 'src/App.tsx', line: 1, column: 8, severity: 'error' }]);
  }, 90_000);

  it('classifies warnings as tsc does and ignores src/.kiln', async () => {
    const id = await running();
    const tsconfig = JSON.parse(await host.readFile(id, 'tsconfig.json')) as { compilerOptions: Record<string, unknown> };
    tsconfig.compilerOptions['noUnusedLocals'] = true;
    await host.writeFile(id, 'tsconfig.json', JSON.stringify(tsconfig, null, 2));
    await host.writeFile(id, 'src/util.ts', "export function greet() {\n  const unused = 1;\n  return 'hi';\n}\n");
    await host.writeFile(id, 'src/.kiln/bridge.ts', "export const broken: number = 'not a number';\n");
    expect(await host.findErrors(id)).toEqual({
      errors: [{ message: "'unused' is declared but its value is never read.", file: 'src/util.ts', line: 2, column: 9, severity: 'warning' }],
      errorCount: 0,
      warningCount: 1,
    });
  }, 90_000);

  it('builds beside the dev server without changing what it serves (development code, HMR client)', async () => {
    const id = await running();
    await host.writeFile(id, 'src/App.tsx', APP_WITH_TYPE_ERROR.replace("'three'", '5'));
    expect((await host.findErrors(id)).errorCount).toBe(0);
    const socketPath = (await host.devServer(id)).socketPath as string;
    const served = (await getOverSocket(socketPath, '/src/App.tsx')).body;
    expect(served).toContain('jsxDEV');
    expect(served).toContain('/@react-refresh');
  }, 90_000);

  it('runs the cold way when the dev server is not running', async () => {
    const id = await running();
    await host.cleanup(id).catch(() => undefined);
    await host.ensure(id);
    await host.writeFile(id, 'src/App.tsx', APP_WITH_TYPE_ERROR.replace('three', 'four')); // not scanned before
    const before = host.commands;
    expect((await host.findErrors(id)).errorCount).toBe(1);
    expect(host.commands).toBeGreaterThan(before);
  }, 90_000);
});
