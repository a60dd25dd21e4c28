import { marketingAudienceContract } from './contracts/marketing-audience.contract.js';
import { marketingOutboxContract } from './contracts/marketing-outbox.contract.js';
import { InMemoryMarketingAudience, InMemoryMarketingOutbox } from './in-memory-marketing.js';

marketingAudienceContract('InMemoryMarketingAudience', async () => {
  const audience = new InMemoryMarketingAudience();
  return {
    audience,
    contact: async (email) => audience.contact(email),
    events: async (email) => audience.tracked.filter((e) => e.identifiers.email_id === email).map((e) => ({ name: e.eventName, properties: { ...e.properties } })),
    breakIt: async () => {
      audience.down = true;
    },
    repair: async () => {
      audience.down = false;
    },
  };
});

marketingOutboxContract('InMemoryMarketingOutbox', async () => ({ outbox: async () => new InMemoryMarketingOutbox() }));
