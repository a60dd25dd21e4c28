/** SPEC §1: each message or task counts as one prompt, which costs one credit. */
export const PROMPT_COST = 1;
/** SPEC §9: both sides of a referral get 25 credits (docs/decisions.md: 25, not 5). */
export const REFERRAL_BONUS_CREDITS = 25;
/** SPEC §9: an add-on pack is 500 credits, one-time, never expiring. */
export const ADDON_PACK_CREDITS = 500;

/**
 * What one add-on pack costs, in integer minor units per currency: SPEC §9's computed price
 * (9.99 USD, 499 INR). The Stripe prices configured for the pack (STRIPE_PRICE_ADDON_*) must
 * carry the same amounts, and the add-on dialog shows exactly this (docs/decisions.md).
 */
export const ADDON_PACK_PRICE_MINOR: Readonly<Record<'USD' | 'INR', number>> = Object.freeze({ USD: 9_99, INR: 499_00 });
