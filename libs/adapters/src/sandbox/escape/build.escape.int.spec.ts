// Issue 12's escape suite, source (c): the type-check and build find-errors runs (the build loads
// the project's vite.config.ts through Kiln's launcher).
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
  // The config started a heartbeat daemon during the build; find-errors has returned since.
  endDaemonSource: async () => 'find-errors returned',
});
