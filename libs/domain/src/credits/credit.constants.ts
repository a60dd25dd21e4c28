/** SPEC §1: each message or task counts as one prompt, which costs one credit. */
export const PROMPT_COST = 1;
/** SPEC §9: both sides of a referral get 25 credits (docs/decisions.md: 25, not 5). */
export const REFERRAL_BONUS_CREDITS = 25;
/** SPEC §9: an add-on pack is 500 credits, one-time, never expiring. */
export const ADDON_PACK_CREDITS = 500;
