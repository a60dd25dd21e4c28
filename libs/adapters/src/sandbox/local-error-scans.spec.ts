import { describe, expect, it } from '@jest/globals';
import { type CommandResult, ErrorScanUnavailable, unavailableReasonOf } from '@kiln/domain';
import { BUILD_DID_NOT_RUN, LocalErrorScans, TYPE_CHECK_DID_NOT_RUN } from './local-error-scans.js';

const done = (over: Partial<CommandResult> = {}): CommandResult => ({ exitCode: 0, stdout: '', stderr: '', timedOut: false, outputTruncated: false, ...over });

/** LocalErrorScans with scripted type-check and build results (no processes). */
function scans(tsc: CommandResult, build: CommandResult = done()) {
  return new LocalErrorScans({
    existingProjectDir: async () => '/srv/kiln/sandboxes/p1',
    syncDependencies: async () => ({ kind: 'unchanged' }),
    runCommand: async (_id, command) => (Array.isArray(command) && command.includes('--noEmit') ? tsc : build),
    launcher: async () => '/launcher.mjs',
    workingTree: async () => {
      throw new Error('no git here'); // no scan cache
    },
    launcherFile: '/launcher.mjs',
  });
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('resolved');
    },
    (e: unknown) => e,
  );
}

describe('LocalErrorScans never reports "0 errors" for a check that did not run', () => {
  it('a compiler that cannot start (node_modules missing) rejects as unavailable, its output for the log only', async () => {
    const missing = done({ exitCode: 1, stderr: "Error: Cannot find module '/srv/kiln/sandboxes/p1/node_modules/typescript/bin/tsc'" });
    const error = await rejection(scans(missing).findErrors('p1'));
    expect(error).toBeInstanceOf(ErrorScanUnavailable);
    expect(unavailableReasonOf(error)).toBe(TYPE_CHECK_DID_NOT_RUN);
    expect(unavailableReasonOf(error)).not.toContain('/srv');
    expect((error as Error).message).toContain('Cannot find module');
  });

  it('a crashed or killed compiler, and timeouts, reject as unavailable', async () => {
    expect(unavailableReasonOf(await rejection(scans(done({ exitCode: 137 })).findErrors('p1')))).toBe(TYPE_CHECK_DID_NOT_RUN);
    expect(unavailableReasonOf(await rejection(scans(done({ exitCode: 124, timedOut: true })).findErrors('p1')))).toMatch(/^Type-checking did not finish within \d+ s\.$/);
    expect(unavailableReasonOf(await rejection(scans(done(), done({ exitCode: 124, timedOut: true })).findErrors('p1')))).toMatch(/^The build did not finish/);
    expect(unavailableReasonOf(await rejection(scans(done(), done({ exitCode: 1, stderr: 'launcher crashed' })).findErrors('p1')))).toBe(BUILD_DID_NOT_RUN);
  });

  it('a check that ran answers its findings, checked', async () => {
    const clean = await scans(done()).findErrors('p1');
    expect(clean).toEqual({ errors: [], errorCount: 0, warningCount: 0 });
    const typeError = await scans(done({ exitCode: 2, stdout: "src/App.tsx(2,9): error TS2322: Type 'string' is not assignable to type 'number'." })).findErrors('p1');
    expect(typeError.errorCount).toBe(1);
    expect(typeError.unavailableReason).toBeUndefined();
  });
});

describe('LocalErrorScans asks the running dev server first (warm checks)', () => {
  const TYPE_ERROR = "src/App.tsx(2,9): error TS2322: Type 'string' is not assignable to type 'number'.\n";
  const answer = (typeCheck: object, build: object | null) => JSON.stringify({ typeCheck, build });
  const clean = { output: '', errorCount: 0 };

  /** Scans whose working tree is `tree.current` (tree ids), with scripted warm answers; counts cold commands. */
  function warmScans(answers: (mode: string) => string | null, changed: (from: string, to: string) => readonly string[] = () => ['src/App.tsx']) {
    const tree = { current: 'a'.repeat(40) };
    const calls = { cold: 0, modes: [] as string[], changed: [] as (readonly string[])[] };
    const host = new LocalErrorScans({
      existingProjectDir: async () => '/srv/kiln/sandboxes/p1',
      syncDependencies: async () => ({ kind: 'unchanged' }),
      runCommand: async () => {
        calls.cold += 1;
        return done();
      },
      launcher: async () => '/launcher.mjs',
      workingTree: async () => tree.current,
      launcherFile: '/launcher.mjs',
      warmCheck: async (_id, mode, _timeoutMs, changedPaths) => {
        calls.modes.push(mode);
        calls.changed.push(changedPaths);
        return answers(mode);
      },
      changedPaths: async (_id, from, to) => changed(from, to),
    });
    return { host, tree, calls };
  }

  it('uses the answer: type errors as tsc prints them, build errors as the launcher reports them', async () => {
    const typed = warmScans(() => answer({ output: TYPE_ERROR, errorCount: 1 }, null));
    expect((await typed.host.findErrors('p1')).errors).toEqual([{ message: "Type 'string' is not assignable to type 'number'.", file: 'src/App.tsx', line: 2, column: 9, severity: 'error' }]);
    const built = warmScans(() => answer(clean, { errors: [{ message: "[UNRESOLVED_IMPORT] Could not resolve './x.css' in src/App.tsx", loc: { file: 'src/App.tsx', line: 1, column: 7 } }] }));
    expect((await built.host.findErrors('p1')).errors).toEqual([{ message: "Could not resolve './x.css' in src/App.tsx", file: 'src/App.tsx', line: 1, column: 8, severity: 'error' }]);
    expect(typed.calls.cold + built.calls.cold).toBe(0);
  });

  it('runs the cold way for no answer, a garbled or inconsistent one, a fallback, or a build asked for and skipped', async () => {
    for (const reply of [
      null,
      'garbage',
      JSON.stringify({ error: 'crashed' }),
      JSON.stringify({ typeCheck: { fallback: 'project references' } }),
      answer({ output: '', errorCount: 2 }, null), // errors counted, none printed
      answer(clean, null), // the first check must build
    ]) {
      const { host, calls } = warmScans(() => reply);
      expect(await host.findErrors('p1')).toEqual({ errors: [], errorCount: 0, warningCount: 0 });
      expect([reply, calls.cold]).toEqual([reply, 2]);
    }
  });

  it('asks to vouch only after a build passed, while only TypeScript, stylesheets under src/ and index.html changed since', async () => {
    let changed: readonly string[] = ['src/App.tsx'];
    const { host, tree, calls } = warmScans((mode) => answer(clean, mode === 'build' ? { ok: true } : null), () => changed);
    await host.findErrors('p1');
    tree.current = 'b'.repeat(40);
    await host.findErrors('p1');
    changed = ['src/App.tsx', 'vite.config.ts'];
    tree.current = 'c'.repeat(40);
    await host.findErrors('p1');
    changed = ['src/pages/Team.tsx', 'src/index.css', 'index.html'];
    tree.current = 'd'.repeat(40);
    await host.findErrors('p1');
    expect(calls.modes).toEqual(['build', 'vouch', 'build', 'vouch']);
    expect(calls.changed.at(-1)).toEqual(['src/pages/Team.tsx', 'src/index.css', 'index.html']);
    expect(calls.cold).toBe(0);
  });

  it('never vouches from a build that failed', async () => {
    const { host, tree, calls } = warmScans(() => answer(clean, { errors: [{ message: 'boom' }] }));
    expect((await host.findErrors('p1')).errorCount).toBe(1);
    tree.current = 'b'.repeat(40);
    await host.findErrors('p1');
    expect(calls.modes).toEqual(['build', 'build']);
  });
});
