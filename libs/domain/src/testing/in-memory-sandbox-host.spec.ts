import { describe, expect, it } from '@jest/globals';
import { sandboxHostContract } from './contracts/sandbox-host.contract.js';
import { InMemorySandboxHost } from './in-memory-sandbox-host.js';

sandboxHostContract('InMemorySandboxHost', async () => ({ host: new InMemorySandboxHost(), runsCommands: false }));

describe('InMemorySandboxHost', () => {
  it('answers commands with a clear failure', async () => {
    const host = new InMemorySandboxHost();
    await host.ensure('p');
    expect(await host.runCommand('p', 'ls')).toEqual({
      exitCode: 126,
      stdout: '',
      stderr: 'The in-memory sandbox cannot run commands\n',
      timedOut: false,
      outputTruncated: false,
    });
  });
});

describe('InMemorySandboxHost dev server and scans', () => {
  it('runs its dev server at once on no port and says so once to subscribers', async () => {
    const host = new InMemorySandboxHost();
    await host.ensure('p');
    const events: unknown[] = [];
    host.subscribe((e) => events.push(e));
    const running = { status: 'running', socketPath: null, message: 'In-memory sandbox (no dev server)' };
    expect(await host.devServer('p')).toEqual(running);
    expect(await host.devServer('p')).toEqual(running);
    expect(events).toEqual([{ type: 'dev-server', sandboxId: 'p', state: running }]);
    await host.restartDev('p');
    expect(events.slice(1).map((e) => (e as { state: { status: string } }).state.status)).toEqual(['stopped', 'starting', 'running']);
  });

  it('rejects find-errors (no compiler) unless the test scripted the errors, which go through errorScanFrom', async () => {
    const host = new InMemorySandboxHost();
    await host.ensure('p');
    await expect(host.findErrors('p')).rejects.toThrow(/no compiler/);
    host.scriptErrors('p', [
      { message: "Type 'string' is not assignable to type 'number'.", file: 'src/App.tsx', line: 2, column: 9, severity: 'error' },
      { message: "'x' is declared but its value is never read.", file: 'src/a.ts', line: 1, column: 7, severity: 'warning' },
      { message: 'hidden', file: 'src/.kiln/bridge.ts', line: 1, column: 1, severity: 'error' },
    ]);
    const scan = await host.findErrors('p');
    expect(scan.errorCount).toBe(1);
    expect(scan.warningCount).toBe(1);
    expect(scan.errors.map((e) => e.file)).toEqual(['src/App.tsx', 'src/a.ts']);
    await host.cleanup('p');
    await host.ensure('p');
    await expect(host.findErrors('p')).rejects.toThrow();
  });
});
