import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ErrorScanUnavailable, unavailableReasonOf } from '@kiln/domain';
import { TYPE_CHECK_DID_NOT_RUN } from './local-error-scans.js';
import { DEFAULT_BWRAP_PATH, LocalSandboxHost } from './local-sandbox-host.adapter.js';
import { APP_WITH_TYPE_ERROR, CountingHost } from './testing/find-errors-fixtures.js';
import { TEST_SANDBOX_CACHE_DIR, tempSandboxRoot } from './testing/sandbox-test-dirs.js';

const hasBwrap = existsSync(DEFAULT_BWRAP_PATH);


const label = hasBwrap ? 'in bubblewrap' : 'without bubblewrap';


describe(`LocalSandboxHost find-errors (${label})`, () => {
  let close: () => Promise<void>;
  let host: CountingHost;
  const commandsRun = () => host.commands;
  let n = 0;
  const project = async () => {
    const id = `scan-${++n}`;
    await host.ensure(id);
    return id;
  };

  beforeAll(async () => {
    let root: string;
    ({ root, close } = await tempSandboxRoot());
    host = new CountingHost({ root, cacheDir: TEST_SANDBOX_CACHE_DIR });
    await host.prepareTemplate();
  }, 120_000);
  afterAll(async () => {
    await host.stopAll();
    await close();
  });

  it('finds nothing in the starter (type-check and build both clean; timed)', async () => {
    const id = await project();
    const started = performance.now();
    const scan = await host.findErrors(id);
    const ms = performance.now() - started;
    expect(scan).toEqual({ errors: [], errorCount: 0, warningCount: 0 });
    // The build went to Kiln's temporary folder, which the tree hides.
    const tree = await host.getTree(id, '.');
    expect(tree.map((e) => e.name)).not.toContain('.kiln-build');
    process.stdout.write(`find-errors on the clean starter (${label}): ${ms.toFixed(0)} ms\n`);
  }, 60_000);

  it('reuses a scan for the same files (another project from the starter, or nothing changed), never after a change', async () => {
    const first = await project();
    await host.findErrors(first); // the starter's scan (maybe already known)
    const second = await project();
    const ran = commandsRun();
    expect(await host.findErrors(second)).toEqual({ errors: [], errorCount: 0, warningCount: 0 });
    expect(commandsRun()).toBe(ran); // no compiler ran
    // A change is scanned for real.
    await host.writeFile(second, 'src/App.tsx', APP_WITH_TYPE_ERROR);
    expect((await host.findErrors(second)).errorCount).toBe(1);
    expect(commandsRun()).toBeGreaterThan(ran);
    await host.writeFile(first, 'src/App.tsx', APP_WITH_TYPE_ERROR);
    expect((await host.findErrors(first)).errors).toEqual([expect.objectContaining({ file: 'src/App.tsx', line: 2, column: 9 })]);
    await host.deleteFile(second, 'src/App.tsx');
    expect((await host.findErrors(second)).errorCount).toBeGreaterThan(0); // main.tsx imports App
  }, 90_000);

  it('reports a type error with its message, file, line, column and severity', async () => {
    const id = await project();
    await host.writeFile(id, 'src/App.tsx', APP_WITH_TYPE_ERROR);
    const scan = await host.findErrors(id);
    expect(scan).toEqual({
      errors: [
        {
          message: "Type 'string' is not assignable to type 'number'.",
          file: 'src/App.tsx',
          line: 2,
          column: 9,
          severity: 'error',
        },
      ],
      errorCount: 1,
      warningCount: 0,
    });
  }, 60_000);

  it('ignores errors in the AI-support folder src/.kiln', async () => {
    const id = await project();
    await host.writeFile(id, 'src/.kiln/bridge.ts', "export const broken: number = 'not a number';\n");
    const scan = await host.findErrors(id);
    expect(scan).toEqual({ errors: [], errorCount: 0, warningCount: 0 });
    // The same error elsewhere counts.
    await host.writeFile(id, 'src/bridge.ts', "export const broken: number = 'not a number';\n");
    expect((await host.findErrors(id)).errors).toEqual([expect.objectContaining({ file: 'src/bridge.ts', line: 1, column: 14 })]);
  }, 60_000);

  it('classifies an unused variable ("never read") as a warning, and still builds', async () => {
    const id = await project();
    const tsconfig = JSON.parse(await host.readFile(id, 'tsconfig.json')) as { compilerOptions: Record<string, unknown> };
    tsconfig.compilerOptions['noUnusedLocals'] = true;
    await host.writeFile(id, 'tsconfig.json', JSON.stringify(tsconfig, null, 2));
    await host.writeFile(id, 'src/util.ts', "export function greet() {\n  const unused = 1;\n  return 'hi';\n}\n");
    const scan = await host.findErrors(id);
    expect(scan).toEqual({
      errors: [{ message: "'unused' is declared but its value is never read.", file: 'src/util.ts', line: 2, column: 9, severity: 'warning' }],
      errorCount: 0,
      warningCount: 1,
    });
  }, 60_000);

  it('reports what only the build sees (an import Vite cannot resolve), with its position', async () => {
    const id = await project();
    const app = await host.readFile(id, 'src/App.tsx');
    await host.writeFile(id, 'src/App.tsx', `import './missing-styles.css';\n${app}`);
    const scan = await host.findErrors(id);
    expect(scan.errorCount).toBe(1);
    expect(scan.errors[0]).toEqual({
      message: "Could not resolve './missing-styles.css' in src/App.tsx",
      file: 'src/App.tsx',
      line: 1,
      column: 8,
      severity: 'error',
    });
  }, 60_000);

  it('rejects when the scan cannot run (no compiler), never "0 errors": the API answers zero counts marked unavailable', async () => {
    const id = await project();
    await host.deleteFile(id, 'node_modules');
    const error: unknown = await host.findErrors(id).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ErrorScanUnavailable);
    expect(unavailableReasonOf(error)).toBe(TYPE_CHECK_DID_NOT_RUN);
    expect(unavailableReasonOf(error)).not.toContain('/'); // no server path
    await expect(host.findErrors('no-such-sandbox')).rejects.toThrow();
  }, 60_000);
});

(hasBwrap ? describe : describe.skip)('LocalSandboxHost find-errors without bubblewrap', () => {
  it('runs the same scan as plain processes', async () => {
    const { root, close } = await tempSandboxRoot();
    try {
      const host = new LocalSandboxHost({ root, cacheDir: TEST_SANDBOX_CACHE_DIR, bwrapPath: null });
      await host.ensure('p');
      await host.writeFile('p', 'src/App.tsx', APP_WITH_TYPE_ERROR);
      expect((await host.findErrors('p')).errors).toEqual([
        { message: "Type 'string' is not assignable to type 'number'.", file: 'src/App.tsx', line: 2, column: 9, severity: 'error' },
      ]);
      await host.writeFile('p', 'src/App.tsx', "import './nope.css';\nexport function App() {\n  return null;\n}\n");
      expect((await host.findErrors('p')).errors).toEqual([expect.objectContaining({ file: 'src/App.tsx', line: 1, column: 8 })]);
    } finally {
      await close();
    }
  }, 60_000);
});
