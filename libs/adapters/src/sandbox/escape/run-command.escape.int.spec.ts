// Issue 12's escape suite, source (a): a shell line given to run-command.
import { describeEscapes } from './testing/escape-suite.js';

describeEscapes({
  source: 'run-command',
  attack: async (world, id) => {
    const run = await world.host.runCommand(id, 'node .attack/attacks.mjs run-command', { timeoutSeconds: 150 });
    return world.results(id, 'run-command').catch((e: Error) => {
      throw new Error(`${e.message}; the command exited ${run.exitCode}: ${run.stderr.slice(-1000)}`);
    });
  },
  endDaemonSource: async (world, id) => {
    // A double-forked, setsid'd heartbeat writer and a setsid'd `sleep 60` (renamed to carry the
    // marker), then the command waits to be stopped at its 2 s timeout.
    const marker = world.marker('run-command');
    const line =
      `(setsid nohup node .attack/attacks.mjs heartbeat .attack/heartbeat-run-command ${marker} >/dev/null 2>&1 &); ` +
      `setsid nohup bash -c 'exec -a ${marker}-sleep sleep 60' >/dev/null 2>&1 & ` +
      'sleep 30';
    const result = await world.host.runCommand(id, line, { timeoutSeconds: 2 });
    return `the command returned (${result.timedOut ? 'stopped at its 2 s timeout' : `exit code ${result.exitCode}`})`;
  },
});
