/** The marketing contact attributes of SPEC §3, in the SPEC's order and spelling. */
export const CONTACT_ATTRIBUTE_NAMES = [
  'FIRSTNAME',
  'LASTNAME',
  'SMS',
  'PLAN',
  'TOTAL_PROMPTS_USED',
  'PROMPTS_BALANCE',
  'LAST_PROMPT_USED_TIMESTAMP',
  'BILLING_CYCLE_START_DATE',
  'BILLING_CYCLE_END_DATE',
  'FIRST_PURCHASE_DATE',
  'SIGNUP_DATE',
  'TOTAL_PURCHASE_VALUE',
  'COUNTRY',
  'CONTACT_TIMEZONE',
  'JOB_TITLE',
  'LINKEDIN',
  'DOB',
  'WHATSAPP',
  'LANDLINE_NUMBER',
  'ORGANIZATION',
  'PROJECT_COUNT',
  'CREDIT_BALANCE',
  'EXT_ID',
] as const;
export type ContactAttributeName = (typeof CONTACT_ATTRIBUTE_NAMES)[number];

/** Attributes holding counts or amounts; every other attribute is text. */
export const NUMERIC_CONTACT_ATTRIBUTES = [
  'TOTAL_PROMPTS_USED',
  'PROMPTS_BALANCE',
  'TOTAL_PURCHASE_VALUE',
  'PROJECT_COUNT',
  'CREDIT_BALANCE',
] as const satisfies readonly ContactAttributeName[];
type NumericAttribute = (typeof NUMERIC_CONTACT_ATTRIBUTES)[number];

/**
 * What Kiln tells the marketing audience about a contact. Every attribute is optional: an
 * update sends only what changed. Numbers are counts or amounts; dates and timestamps are
 * ISO-8601 text; phone numbers (SMS, WHATSAPP, LANDLINE_NUMBER) go through
 * normalizeMarketingPhone; EXT_ID is the Kiln user id.
 */
export type ContactAttributes = {
  readonly [K in ContactAttributeName]?: K extends NumericAttribute ? number : string;
};

/** SPEC §9: a new marketing contact has used 0 prompts and has a balance of 5 (the free plan). */
export const NEW_CONTACT_PROMPTS_USED = 0;
export const NEW_CONTACT_PROMPTS_BALANCE = 5;

export function newContactAttributes(): ContactAttributes {
  return Object.freeze({
    TOTAL_PROMPTS_USED: NEW_CONTACT_PROMPTS_USED,
    PROMPTS_BALANCE: NEW_CONTACT_PROMPTS_BALANCE,
  });
}
