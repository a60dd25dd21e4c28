import { analyticsEventStoreContract } from './contracts/analytics-event-store.contract.js';
import { InMemoryAnalyticsEventStore } from './in-memory-analytics-event-store.js';

analyticsEventStoreContract('InMemoryAnalyticsEventStore', async () => ({ fresh: async () => new InMemoryAnalyticsEventStore() }));
