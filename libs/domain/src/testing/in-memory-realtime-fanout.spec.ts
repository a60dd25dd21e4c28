import { realtimeFanoutContract } from './contracts/realtime-fanout.contract.js';
import { InMemoryRealtimeFanout } from './in-memory-realtime-fanout.js';

realtimeFanoutContract('in memory', async () => {
  const a = new InMemoryRealtimeFanout();
  const unreachable = new InMemoryRealtimeFanout();
  unreachable.down = true;
  return { a, b: a.sibling(), unreachable };
});
