import { describe, expect, it } from '@jest/globals';
import { CONTACT_ATTRIBUTE_NAMES, type ContactAttributes, newContactAttributes } from './contact-attributes.js';

describe('marketing contact attributes (SPEC §3)', () => {
  it('lists the 23 attributes from FIRSTNAME to EXT_ID', () => {
    expect(CONTACT_ATTRIBUTE_NAMES).toHaveLength(23);
    expect(CONTACT_ATTRIBUTE_NAMES[0]).toBe('FIRSTNAME');
    expect(CONTACT_ATTRIBUTE_NAMES.at(-1)).toBe('EXT_ID');
    expect(new Set(CONTACT_ATTRIBUTE_NAMES).size).toBe(23);
  });

  it('types counts as numbers and the rest as text', () => {
    const attributes: ContactAttributes = { FIRSTNAME: 'Asha', PROJECT_COUNT: 2, SIGNUP_DATE: '2025-01-31' };
    expect(attributes.PROJECT_COUNT).toBe(2);
  });
});

describe('newContactAttributes (SPEC §9)', () => {
  it('starts a new contact at 0 prompts used and a balance of 5', () => {
    expect(newContactAttributes()).toEqual({ TOTAL_PROMPTS_USED: 0, PROMPTS_BALANCE: 5 });
  });

  it('gives a frozen value so no caller can change the starting balance for the next one', () => {
    expect(Object.isFrozen(newContactAttributes())).toBe(true);
  });
});
