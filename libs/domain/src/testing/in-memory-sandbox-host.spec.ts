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
