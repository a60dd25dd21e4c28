import { paymentEventStoresContract } from './contracts/processed-payment-events.contract.js';
import { InMemoryProcessedPaymentEvents, InMemorySubscriptionStateVersions } from './in-memory-payments.js';

let n = 0;
paymentEventStoresContract('in memory', async () => ({
  events: new InMemoryProcessedPaymentEvents(),
  versions: new InMemorySubscriptionStateVersions(),
  newId: () => `evt_${++n}`,
  newUserId: async () => `user_${++n}`,
}));
