// A closed-loop HTTP load generator, run as its own process so the server under test keeps its
// CPU: reads { base, users: [{ auth }], seconds } from argv[2] (JSON) and prints latency stats.
import { performance } from 'node:perf_hooks';

const { base, users, seconds } = JSON.parse(process.argv[2]);
const latencies = [];
const deadline = performance.now() + seconds * 1000;
const started = performance.now();
await Promise.all(
  users.map(async (user, client) => {
    for (let i = 0; performance.now() < deadline; i += 1) {
      const t0 = performance.now();
      const r = await fetch(`${base}/api/credits/consume`, { method: 'POST', headers: { ...user.auth, 'idempotency-key': `c${client}-${i}` } });
      if (r.status !== 200) throw new Error(`consume answered ${r.status}: ${await r.text()}`);
      await r.arrayBuffer();
      latencies.push(performance.now() - t0);
    }
  }),
);
process.stdout.write(JSON.stringify({ latencies, seconds: (performance.now() - started) / 1000 }));
