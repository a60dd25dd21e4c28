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
