// Issue 12's escape suite, source (b): code the dev server runs (the project's vite.config.ts).
import { describeEscapes } from './testing/escape-suite.js';
import { ATTACKER_VITE_CONFIG } from './testing/escape-world.js';

describeEscapes({
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
});
