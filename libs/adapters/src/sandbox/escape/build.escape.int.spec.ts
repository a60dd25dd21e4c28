// Issue 12's escape suite, source (c): the type-check and build find-errors runs (the build loads
// the project's vite.config.ts through Kiln's launcher: as a command of its own, or warm inside
// the project's running dev server).
import { describeEscapes } from './testing/escape-suite.js';
import { ATTACKER_VITE_CONFIG } from './testing/escape-world.js';

describeEscapes({
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
});
