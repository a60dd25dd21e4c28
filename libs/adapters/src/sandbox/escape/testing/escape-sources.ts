import type { EscapeSource } from './escape-suite.js';
import { ATTACKER_VITE_CONFIG } from './escape-world.js';

// Issue 12's escape suite, source (a): a shell line given to run-command.
export const RUN_COMMAND_ESCAPES: EscapeSource = {
  source: 'run-command',
  attack: async (world, id) => {
    const run = await world.host.runCommand(id, 'node .attack/attacks.mjs run-command', { timeoutSeconds: 150 });
    return world.results(id, 'run-command').catch((e: Error) => {
      throw new Error(`${e.message}; the command exited ${run.exitCode}: ${run.stderr.slice(-1000)}`);
    });
  },
  endDaemonSource: async (world, id) => {
    // A double-forked, setsid'd heartbeat writer and a setsid'd `sleep 60` (renamed to carry the
    // marker), then the command waits to be stopped at its timeout (2 s; 10 s under gVisor).
    const marker = world.marker('run-command');
    const line =
      `(setsid nohup node .attack/attacks.mjs heartbeat .attack/heartbeat-run-command ${marker} >/dev/null 2>&1 &); ` +
      `setsid nohup bash -c 'exec -a ${marker}-sleep sleep 60' >/dev/null 2>&1 & ` +
      'sleep 30';
    const seconds = world.daemonCommandSeconds;
    const result = await world.host.runCommand(id, line, { timeoutSeconds: seconds });
    return `the command returned (${result.timedOut ? `stopped at its ${seconds} s timeout` : `exit code ${result.exitCode}`})`;
  },
};

// Issue 12's escape suite, source (b): code the dev server runs (the project's vite.config.ts).
export const DEV_SERVER_ESCAPES: EscapeSource = {
  source: 'dev-server',
  attack: async (world, id) => {
    await world.host.writeFile(id, 'vite.config.ts', ATTACKER_VITE_CONFIG);
    await world.host.devServer(id);
    // The config awaits every attack before Vite listens; polling the state keeps it active.
    return world.results(id, 'dev-server', { timeoutMs: 180_000, poll: () => world.host.devServer(id) });
  },
  endDaemonSource: async (world, id) => {
    // The config started a heartbeat daemon while it loaded; a restart ends the old server (the
    // new one loads the config again, but the attacks run once per project).
    await world.host.restartDev(id);
    return 'the dev server was restarted';
  },
};

// Issue 12's escape suite, source (c): the type-check and build find-errors runs (the build loads
// the project's vite.config.ts through Kiln's launcher: as a command of its own, or warm inside
// the project's running dev server).
export const BUILD_ESCAPES: EscapeSource = {
  source: 'build',
  attack: async (world, id) => {
    await world.host.writeFile(id, 'vite.config.ts', ATTACKER_VITE_CONFIG);
    const scan = await world.host.findErrors(id).then(
      (s) => `${s.errorCount} errors`,
      (e: unknown) => String(e),
    );
    return world.results(id, 'build').catch((e: Error) => {
      throw new Error(`${e.message}; find-errors: ${scan}`);
    });
  },
  // The config started a heartbeat daemon during the build; find-errors has returned since. When
  // the project's dev server runs, find-errors' build ran warm inside it (runtime/warm-checks.mjs),
  // where the project's config may keep processes as long as that server, as it may when the server
  // loads it: they must not outlive the server. Restarting it ends that server; a daemon of a cold
  // build (its own sandbox, killed with the command) is not touched by it.
  endDaemonSource: async (world, id) => {
    await world.host.restartDev(id);
    return 'find-errors returned and the dev server (where a warm build runs) was restarted';
  },
};
