import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { validatePromptUsageUpdate } from './prompt-usage-update.js';

describe('validatePromptUsageUpdate properties', () => {
  it('accepts exactly: non-blank email and two non-negative safe integers', () => {
    const count = fc.oneof(fc.integer({ min: -5, max: 1000 }), fc.double(), fc.maxSafeNat());
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.emailAddress()), count, count, (email, used, balance) => {
        const valid =
          email.trim() !== '' && [used, balance].every((n) => Number.isSafeInteger(n) && n >= 0);
        expect(validatePromptUsageUpdate({ email, totalPromptsUsed: used, promptsBalance: balance }).ok).toBe(valid);
      }),
    );
  });
});
