import { describe, expect, it } from '@jest/globals';
import { ManualTimers } from '../../testing/auth-fakes';
import { FakeSandboxApi, SequentialIds } from './builder.fakes';
import { PROMPT, TerminalVm } from './terminal.vm';

const settle = async () => {
  for (let i = 0; i < 10; i += 1) await new Promise((resolve) => setImmediate(resolve));
};
/** What the terminal shows, without colours. */
const plain = (text: string) => text.replace(/\x1b\[[0-9;]*[A-Za-z]/g, '');

function setUp() {
  const api = new FakeSandboxApi();
  const vm = new TerminalVm(api, new SequentialIds(), new ManualTimers());
  vm.setProject('p1');
  let screen = '';
  vm.attach((text) => (screen += text));
  return { api, vm, screen: () => plain(screen), clear: () => (screen = '') };
}

describe('TerminalVm', () => {
  it('greets with a prompt once attached, and queues what was written before', () => {
    const api = new FakeSandboxApi();
    const vm = new TerminalVm(api, new SequentialIds(), new ManualTimers());
    let screen = '';
    vm.attach((text) => (screen += text));
    expect(plain(screen)).toBe('Commands run in your project folder (timeout 30 s; Ctrl+C stops one).\r\n$ ');
    expect(screen.endsWith(PROMPT)).toBe(true);
  });

  it('echoes typing, edits with backspace and runs the line on Enter with a fresh command id', async () => {
    const t = setUp();
    t.clear();
    t.vm.input('ls -lx');
    t.vm.input('\x7f');
    t.vm.input('a');
    expect(t.screen()).toBe('ls -lx\b \ba');
    let release: () => void = () => undefined;
    t.api.holdCommand = new Promise((resolve) => (release = resolve));
    t.vm.input('\r');
    await settle();

    expect(t.api.commands).toEqual([{ command: 'ls -la', command_id: 'cmd-1' }]);
    expect(t.vm.running).toEqual({ id: 'cmd-1', command: 'ls -la' });
    release();
  });

  it('prints streamed output as it arrives, then the exit code and a new prompt', async () => {
    const t = setUp();
    let release: () => void = () => undefined;
    t.api.holdCommand = new Promise((resolve) => (release = resolve));
    t.api.commandResult = { exit_code: 1, stdout: 'one\ntwo\n', stderr: 'oops\n', timed_out: false, output_truncated: false };
    t.vm.input('npm test\r');
    await settle();
    t.clear();

    t.vm.onOutput({ command_id: 'cmd-1', stream: 'stdout', text: 'one\n' });
    expect(t.screen()).toBe('one\r\n');
    t.vm.onOutput({ command_id: 'other', stream: 'stdout', text: 'not ours' });
    t.vm.onOutput({ command_id: 'cmd-1', stream: 'stdout', text: 'two\n' });
    t.vm.onOutput({ command_id: 'cmd-1', stream: 'stderr', text: 'oops\n' });
    t.vm.onExit({ command_id: 'cmd-1' });
    release();
    await settle();

    expect(t.screen()).toBe('one\r\ntwo\r\noops\r\n[exit code 1]\r\n$ ');
    expect(t.vm.running).toBeNull();
    expect(t.vm.lastExitCode).toBe(1);
  });

  it("prints the reply's output when the feed delivered none of it", async () => {
    const t = setUp();
    t.api.commandResult = { exit_code: 0, stdout: 'v20.20.0', stderr: '', timed_out: false, output_truncated: false };
    t.vm.input('node -v\r');
    await settle();
    expect(t.screen().endsWith('node -v\r\nv20.20.0\r\n[exit code 0]\r\n$ ')).toBe(true);
  });

  it('prints only the part the feed missed when the reply overtakes the stream', async () => {
    const t = setUp();
    let release: () => void = () => undefined;
    t.api.holdCommand = new Promise((resolve) => (release = resolve));
    t.api.commandResult = { exit_code: 0, stdout: 'a\nb\n', stderr: '', timed_out: false, output_truncated: true };
    t.vm.input('cat x\r');
    await settle();
    t.clear();
    t.vm.onOutput({ command_id: 'cmd-1', stream: 'stdout', text: 'a\n' });
    release(); // no command-exit: the feed dropped the rest
    await settle();
    expect(t.screen()).toBe('a\r\nb\r\n[output truncated]\r\n[exit code 0]\r\n$ ');
  });

  it('reports a timeout and a request failure', async () => {
    const t = setUp();
    t.api.commandResult = { exit_code: 124, stdout: '', stderr: '', timed_out: true, output_truncated: false };
    t.vm.input('sleep 99\r');
    await settle();
    expect(t.screen()).toContain('[timed out]\r\n[exit code 124]');

    t.api.failures.set('runCommand', new Error('Request failed'));
    t.clear();
    t.vm.input('ls\r');
    await settle();
    expect(t.screen()).toBe('ls\r\nCould not run the command: Request failed\r\n$ ');
  });

  it('recalls earlier commands with up and down', async () => {
    const t = setUp();
    t.vm.input('echo one\r');
    await settle();
    t.vm.input('echo two\r');
    await settle();
    t.vm.input('\x1b[A');
    expect(t.vm.line).toBe('echo two');
    t.vm.input('\x1b[A');
    t.vm.input('\x1b[A');
    expect(t.vm.line).toBe('echo one');
    t.vm.input('\x1b[B');
    expect(t.vm.line).toBe('echo two');
    t.vm.input('\x1b[B');
    expect(t.vm.line).toBe('');
  });

  it('ignores typing while a command runs, and an empty line runs nothing', async () => {
    const t = setUp();
    t.vm.input('\r');
    expect(t.api.commands).toEqual([]);
    let release: () => void = () => undefined;
    t.api.holdCommand = new Promise((resolve) => (release = resolve));
    t.vm.input('npm i\rls\r'); // a pasted block: only the first line runs
    await settle();
    t.vm.input('typed ahead');
    expect(t.vm.line).toBe('');
    release();
    await settle();
    expect(t.api.commands.map((c) => c.command)).toEqual(['npm i']);
  });

  it('Ctrl+C while a command runs asks the server to stop it, once; the reply ends the run with exit code 130', async () => {
    const t = setUp();
    let release: () => void = () => undefined;
    t.api.holdCommand = new Promise((resolve) => (release = resolve));
    t.api.commandResult = { exit_code: 130, stdout: 'serving\n', stderr: '[interrupted]\n', timed_out: false, output_truncated: false, interrupted: true };
    t.vm.input('npm run dev\r');
    await settle();
    t.clear();
    t.vm.input('\x03');
    t.vm.input('\x03'); // pressed twice: one request
    await settle();
    expect(t.api.interrupts).toEqual(['cmd-1']);
    expect(t.vm.running).not.toBeNull(); // until the reply comes
    release();
    await settle();
    expect(t.screen()).toContain('^C');
    expect(t.screen().endsWith('[exit code 130]\r\n$ ')).toBe(true);
    expect(t.vm.running).toBeNull();
    expect(t.vm.lastExitCode).toBe(130);
  });

  it('Ctrl+C drops the line; clear empties the screen without a request', async () => {
    const t = setUp();
    t.vm.input('rm -rf');
    t.vm.input('\x03');
    expect(t.vm.line).toBe('');
    t.vm.input('clear\r');
    await settle();
    expect(t.api.commands).toEqual([]);
  });
});
