import { describe, expect, it } from '@jest/globals';
import { promptUsageAttributes, validatePromptUsageUpdate } from './prompt-usage-update.js';

const valid = { email: 'asha@example.com', totalPromptsUsed: 3, promptsBalance: 2 };

describe('validatePromptUsageUpdate (SPEC §5)', () => {
  it('accepts a non-empty email and non-negative counts', () => {
    expect(validatePromptUsageUpdate(valid)).toEqual({ ok: true, value: valid });
  });

  it('accepts zeros (a new contact has used 0 prompts)', () => {
    expect(validatePromptUsageUpdate({ ...valid, totalPromptsUsed: 0, promptsBalance: 0 }).ok).toBe(true);
  });

  it('trims the email', () => {
    const result = validatePromptUsageUpdate({ ...valid, email: '  asha@example.com ' });
    expect(result.ok && result.value.email).toBe('asha@example.com');
  });

  it('keeps the time of the last prompt', () => {
    const at = new Date('2025-03-01T10:00:00.000Z');
    const result = validatePromptUsageUpdate({ ...valid, lastPromptUsedAt: at });
    expect(result.ok && result.value.lastPromptUsedAt).toBe(at);
  });

  it.each([[''], ['   '], [null], [undefined]])('rejects email %p', (email) => {
    expect(validatePromptUsageUpdate({ ...valid, email })).toEqual({
      ok: false,
      error: { code: 'MARKETING.EMAIL_REQUIRED', message: 'A prompt usage update needs an email' },
    });
  });

  it.each([
    ['totalPromptsUsed', -1],
    ['promptsBalance', -1],
    ['totalPromptsUsed', 1.5],
    ['promptsBalance', Number.NaN],
    ['promptsBalance', Number.POSITIVE_INFINITY],
  ] as const)('rejects %s = %p', (field, value) => {
    const result = validatePromptUsageUpdate({ ...valid, [field]: value });
    expect(result.ok).toBe(false);
    if (!result.ok && result.error.code === 'MARKETING.INVALID_PROMPT_COUNT') {
      expect(result.error.field).toBe(field);
      expect(result.error.message).toBe(`${field} must be a non-negative whole number, got ${value}`);
    } else {
      throw new Error('expected MARKETING.INVALID_PROMPT_COUNT');
    }
  });

  it('reports the email before the numbers', () => {
    const result = validatePromptUsageUpdate({ email: '', totalPromptsUsed: -1, promptsBalance: -1 });
    expect(!result.ok && result.error.code).toBe('MARKETING.EMAIL_REQUIRED');
  });
});

describe('promptUsageAttributes', () => {
  it('maps an update to the SPEC §3 contact attributes', () => {
    const result = validatePromptUsageUpdate({
      ...valid,
      lastPromptUsedAt: new Date('2025-03-01T10:00:00.000Z'),
    });
    if (!result.ok) throw new Error('expected a valid update');
    expect(promptUsageAttributes(result.value)).toEqual({
      TOTAL_PROMPTS_USED: 3,
      PROMPTS_BALANCE: 2,
      LAST_PROMPT_USED_TIMESTAMP: '2025-03-01T10:00:00.000Z',
    });
  });

  it('leaves the timestamp out when no prompt was just used', () => {
    const result = validatePromptUsageUpdate(valid);
    if (!result.ok) throw new Error('expected a valid update');
    expect(promptUsageAttributes(result.value)).toEqual({ TOTAL_PROMPTS_USED: 3, PROMPTS_BALANCE: 2 });
  });
});
