import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import type { ContactAttributes } from '../../marketing/contact-attributes.js';
import type { MarketingAudience } from '../../marketing/marketing-audience.port.js';

export interface MarketingAudienceHarness {
  readonly audience: MarketingAudience;
  /** The contact's attributes as the audience keeps them, or null when there is no such contact. */
  contact(email: string): Promise<ContactAttributes | null>;
  /** The names and properties of the events recorded for an email, oldest first. */
  events(email: string): Promise<readonly { readonly name: string; readonly properties: Record<string, unknown> }[]>;
  /** Makes the audience unreachable until `repair`. */
  breakIt(): Promise<void>;
  repair(): Promise<void>;
  close?(): Promise<void>;
}

let counter = 0;
const freshEmail = () => `contact-${Date.now().toString(36)}-${(counter++).toString(36)}@example.com`;
const at = new Date('2026-03-01T10:00:00.000Z');

/** The MarketingAudience contract. Call it from each adapter's spec. */
export function marketingAudienceContract(name: string, makeHarness: () => Promise<MarketingAudienceHarness>): void {
  describe(`MarketingAudience contract: ${name}`, () => {
    let h: MarketingAudienceHarness;
    beforeAll(async () => {
      h = await makeHarness();
    });
    afterAll(async () => {
      await h.close?.();
    });

    it('a new contact starts with 0 prompts used and a balance of 5, under the given attributes', async () => {
      const email = freshEmail();
      await h.audience.saveContact(email, { FIRSTNAME: 'Asha', PLAN: 'free' });
      expect(await h.contact(email)).toEqual({ FIRSTNAME: 'Asha', PLAN: 'free', TOTAL_PROMPTS_USED: 0, PROMPTS_BALANCE: 5 });
    });

    it('given prompt counts win over the new-contact defaults', async () => {
      const email = freshEmail();
      await h.audience.saveContact(email, { TOTAL_PROMPTS_USED: 3, PROMPTS_BALANCE: 22 });
      expect(await h.contact(email)).toEqual({ TOTAL_PROMPTS_USED: 3, PROMPTS_BALANCE: 22 });
    });

    it('an existing contact gets only the given attributes; the others stay (no reset to the defaults)', async () => {
      const email = freshEmail();
      await h.audience.saveContact(email, { FIRSTNAME: 'Asha', TOTAL_PROMPTS_USED: 4, PROMPTS_BALANCE: 1 });
      await h.audience.saveContact(email.toUpperCase(), { PLAN: 'pro_monthly' });
      expect(await h.contact(email)).toEqual({ FIRSTNAME: 'Asha', TOTAL_PROMPTS_USED: 4, PROMPTS_BALANCE: 1, PLAN: 'pro_monthly' });
    });

    it('records events with their name and properties', async () => {
      const email = freshEmail();
      await h.audience.saveContact(email, {});
      await h.audience.trackEvent({ eventName: 'project_created', identifiers: { email_id: email, ext_id: 'u-1' }, properties: { template: 'blank', pages: 2 }, occurredAt: at });
      expect(await h.events(email)).toEqual([{ name: 'project_created', properties: { template: 'blank', pages: 2 } }]);
    });

    it('removes a contact; removing one that does not exist is fine', async () => {
      const email = freshEmail();
      await h.audience.saveContact(email, { PLAN: 'free' });
      await h.audience.removeContact(email);
      expect(await h.contact(email)).toBeNull();
      await expect(h.audience.removeContact(email)).resolves.toBeUndefined();
      await h.audience.saveContact(email, {});
      expect(await h.contact(email)).toEqual({ TOTAL_PROMPTS_USED: 0, PROMPTS_BALANCE: 5 });
    });

    it('while unreachable every call rejects and nothing changes', async () => {
      const email = freshEmail();
      await h.audience.saveContact(email, { PLAN: 'free' });
      await h.breakIt();
      try {
        await expect(h.audience.saveContact(email, { PLAN: 'pro_annual' })).rejects.toThrow();
        await expect(h.audience.trackEvent({ eventName: 'x', identifiers: { email_id: email }, properties: {}, occurredAt: at })).rejects.toThrow();
        await expect(h.audience.removeContact(email)).rejects.toThrow();
      } finally {
        await h.repair();
      }
      expect(await h.contact(email)).toEqual({ PLAN: 'free', TOTAL_PROMPTS_USED: 0, PROMPTS_BALANCE: 5 });
      expect(await h.events(email)).toEqual([]);
    });

    it('a contact is the defaults merged with every update in order (model check)', async () => {
      const update = fc.record({ PLAN: fc.constantFrom('free', 'pro_monthly', 'pro_annual'), PROJECT_COUNT: fc.nat(50), TOTAL_PROMPTS_USED: fc.nat(500) }, { requiredKeys: [] });
      await fc.assert(
        fc.asyncProperty(fc.array(update, { minLength: 1, maxLength: 4 }), async (updates) => {
          const email = freshEmail();
          let model: ContactAttributes = { TOTAL_PROMPTS_USED: 0, PROMPTS_BALANCE: 5 };
          for (const u of updates) {
            await h.audience.saveContact(email, u);
            model = { ...model, ...u };
          }
          expect(await h.contact(email)).toEqual(model);
        }),
        { numRuns: 15 },
      );
    });
  });
}
