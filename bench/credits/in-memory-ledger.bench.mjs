// Debit throughput of the pure credit rules through the in-memory ledger, single process.
// The baseline the PostgreSQL ledger and the API are compared with (bench/credits, issue 3).
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { InMemoryCreditLedger } = require('../../libs/domain/dist/testing/index.js');

const ACCOUNTS = 64;
const DEBITS_PER_ACCOUNT = 2_000;
const at = new Date(Date.UTC(2026, 0, 1));
const end = new Date(Date.UTC(2026, 1, 1));

const ledger = new InMemoryCreditLedger();
for (let a = 0; a < ACCOUNTS; a += 1) {
  await ledger.startCycle(`u${a}`, { key: 'c', at, start: at, end, allowance: DEBITS_PER_ACCOUNT });
}

const latencies = [];
const started = process.hrtime.bigint();
// 64 concurrent clients, one per account, each debiting until its allowance is spent.
await Promise.all(
  Array.from({ length: ACCOUNTS }, async (_, a) => {
    for (let i = 0; i < DEBITS_PER_ACCOUNT; i += 1) {
      const t0 = process.hrtime.bigint();
      const r = await ledger.debit(`u${a}`, { key: `d${i}`, at, amount: 1 });
      latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
      if (!r.ok) throw new Error(`unexpected refusal: ${r.error.code}`);
    }
  }),
);
const seconds = Number(process.hrtime.bigint() - started) / 1e9;
latencies.sort((x, y) => x - y);
const p = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))].toFixed(3);
const total = ACCOUNTS * DEBITS_PER_ACCOUNT;
console.log(`in-memory ledger: ${total} debits by ${ACCOUNTS} concurrent clients in ${seconds.toFixed(2)} s`);
console.log(`  throughput ${(total / seconds).toFixed(0)} debits/s · latency p50 ${p(0.5)} ms · p99 ${p(0.99)} ms`);
