import type { DomainError } from '../shared/domain-error.js';
import { type Result, err, ok } from '../shared/result.js';
import type { ContactAttributes } from './contact-attributes.js';

/** A validated update of a contact's prompt usage for the marketing audience. */
export interface PromptUsageUpdate {
  readonly email: string;
  readonly totalPromptsUsed: number;
  readonly promptsBalance: number;
  /** When the latest prompt was used, if this update follows a prompt. */
  readonly lastPromptUsedAt?: Date;
}

export interface PromptUsageUpdateInput {
  readonly email: string | null | undefined;
  readonly totalPromptsUsed: number;
  readonly promptsBalance: number;
  readonly lastPromptUsedAt?: Date;
}

export type PromptCountField = 'totalPromptsUsed' | 'promptsBalance';

export type PromptUsageUpdateError =
  | DomainError<'MARKETING.EMAIL_REQUIRED'>
  | (DomainError<'MARKETING.INVALID_PROMPT_COUNT'> & { readonly field: PromptCountField; readonly value: number });

/**
 * SPEC §5: a prompt usage update needs a non-empty email and non-negative numbers. Prompts are
 * counted in whole credits, so the numbers must also be safe integers. A profile balance can
 * dip below zero (SPEC §5 credit limit); the caller clamps it to 0 before reporting it here.
 */
export function validatePromptUsageUpdate(
  input: PromptUsageUpdateInput,
): Result<PromptUsageUpdate, PromptUsageUpdateError> {
  const email = (input.email ?? '').trim();
  if (email === '') {
    return err({ code: 'MARKETING.EMAIL_REQUIRED', message: 'A prompt usage update needs an email' });
  }
  for (const field of ['totalPromptsUsed', 'promptsBalance'] as const) {
    const value = input[field];
    if (!Number.isSafeInteger(value) || value < 0) {
      return err({
        code: 'MARKETING.INVALID_PROMPT_COUNT',
        message: `${field} must be a non-negative whole number, got ${value}`,
        field,
        value,
      });
    }
  }
  return ok(
    Object.freeze({
      email,
      totalPromptsUsed: input.totalPromptsUsed,
      promptsBalance: input.promptsBalance,
      ...(input.lastPromptUsedAt === undefined ? {} : { lastPromptUsedAt: input.lastPromptUsedAt }),
    }),
  );
}

/** The contact attributes an update changes (SPEC §3 names). */
export function promptUsageAttributes(update: PromptUsageUpdate): ContactAttributes {
  return {
    TOTAL_PROMPTS_USED: update.totalPromptsUsed,
    PROMPTS_BALANCE: update.promptsBalance,
    ...(update.lastPromptUsedAt === undefined
      ? {}
      : { LAST_PROMPT_USED_TIMESTAMP: update.lastPromptUsedAt.toISOString() }),
  };
}
