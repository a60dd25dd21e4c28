import type { Clock } from '../shared/clock.port.js';
import type { DomainError } from '../shared/domain-error.js';
import { type Result, err, ok } from '../shared/result.js';
import { CONTACT_ATTRIBUTE_NAMES, type ContactAttributes, NUMERIC_CONTACT_ATTRIBUTES } from './contact-attributes.js';
import type { MarketingEventValue } from './marketing-audience.port.js';
import type { MarketingOutbox } from './marketing-outbox.port.js';
import { normalizeMarketingPhone } from './phone-number.js';
import { validatePromptUsageUpdate } from './prompt-usage-update.js';

/** The signed-in person making the request. */
export interface MarketingCaller {
  readonly userId: string;
  readonly email: string | null;
}

export type MarketingRequestError =
  | DomainError<'MARKETING.EMAIL_REQUIRED'>
  | DomainError<'MARKETING.NOT_YOUR_CONTACT'>
  | DomainError<'MARKETING.INVALID_ATTRIBUTE'>
  | DomainError<'MARKETING.INVALID_PROMPT_COUNT'>
  | DomainError<'MARKETING.EVENT_NAME_REQUIRED'>
  | DomainError<'MARKETING.INVALID_EVENT'>;

/** Brevo's rule for event names and property keys: letters, digits, - and _, at most 255. */
export const MARKETING_EVENT_KEY = /^[A-Za-z0-9_-]{1,255}$/;

const PHONE_ATTRIBUTES = ['SMS', 'WHATSAPP', 'LANDLINE_NUMBER'] as const;

/**
 * The caller's own contact only: the email must be the caller's (compared case-insensitively),
 * so nobody can rewrite or track someone else's marketing contact.
 */
function ownEmail(caller: MarketingCaller, given: string | null | undefined): Result<string, MarketingRequestError> {
  const own = (caller.email ?? '').trim();
  if (own === '') return err({ code: 'MARKETING.EMAIL_REQUIRED', message: 'Your account has no email address for marketing' });
  const email = (given ?? '').trim();
  if (email === '') return err({ code: 'MARKETING.EMAIL_REQUIRED', message: 'A contact update needs an email' });
  if (email.toLowerCase() !== own.toLowerCase()) {
    return err({ code: 'MARKETING.NOT_YOUR_CONTACT', message: 'You can only update your own marketing contact' });
  }
  return ok(own);
}

/**
 * Checks and tidies attributes from outside: only SPEC §3 names; counts and amounts are
 * non-negative whole numbers (prompt counts through validatePromptUsageUpdate, SPEC §5); phone
 * numbers get +1 unless they start with + or 00 (SPEC §5), a blank one is left out; EXT_ID is
 * always the caller's id.
 */
export function cleanContactAttributes(raw: Readonly<Record<string, unknown>>, email: string, userId: string): Result<ContactAttributes, MarketingRequestError> {
  const out: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (!(CONTACT_ATTRIBUTE_NAMES as readonly string[]).includes(name)) {
      return err({ code: 'MARKETING.INVALID_ATTRIBUTE', message: `${name} is not a contact attribute` });
    }
    if (value === null || value === undefined) continue;
    if ((NUMERIC_CONTACT_ATTRIBUTES as readonly string[]).includes(name)) {
      if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
        return err({ code: 'MARKETING.INVALID_ATTRIBUTE', message: `${name} must be a non-negative whole number` });
      }
      out[name] = value;
    } else if (typeof value !== 'string') {
      return err({ code: 'MARKETING.INVALID_ATTRIBUTE', message: `${name} must be text` });
    } else if ((PHONE_ATTRIBUTES as readonly string[]).includes(name)) {
      const phone = normalizeMarketingPhone(value);
      if (phone !== null) out[name] = phone;
    } else {
      out[name] = value.trim();
    }
  }
  const used = out['TOTAL_PROMPTS_USED'];
  const balance = out['PROMPTS_BALANCE'];
  if (used !== undefined || balance !== undefined) {
    const usage = validatePromptUsageUpdate({ email, totalPromptsUsed: (used ?? 0) as number, promptsBalance: (balance ?? 0) as number });
    if (!usage.ok) return err({ code: usage.error.code, message: usage.error.message });
  }
  out['EXT_ID'] = userId;
  return ok(out as ContactAttributes);
}

/** PUT /api/brevo/update-contact: queues an update of the caller's contact (delivered by the worker). */
export class UpdateMarketingContact {
  constructor(
    private readonly outbox: Pick<MarketingOutbox, 'enqueue'>,
    private readonly clock: Clock,
  ) {}

  async execute(input: { readonly caller: MarketingCaller; readonly email: string; readonly attributes: Readonly<Record<string, unknown>> }): Promise<Result<void, MarketingRequestError>> {
    const email = ownEmail(input.caller, input.email);
    if (!email.ok) return email;
    const attributes = cleanContactAttributes(input.attributes, email.value, input.caller.userId);
    if (!attributes.ok) return attributes;
    await this.outbox.enqueue({ kind: 'contact', email: email.value, attributes: attributes.value }, this.clock.now());
    return ok(undefined);
  }
}

export interface TrackMarketingEventInput {
  readonly caller: MarketingCaller;
  readonly eventName: string;
  readonly identifiers: { readonly email_id?: string; readonly ext_id?: string };
  readonly properties: Readonly<Record<string, MarketingEventValue>>;
}

/** POST /api/brevo/track-event: queues an event of the caller's contact (SPEC §5: a non-empty event name). */
export class TrackMarketingEvent {
  constructor(
    private readonly outbox: Pick<MarketingOutbox, 'enqueue'>,
    private readonly clock: Clock,
  ) {}

  async execute(input: TrackMarketingEventInput): Promise<Result<void, MarketingRequestError>> {
    const eventName = input.eventName.trim();
    if (eventName === '') return err({ code: 'MARKETING.EVENT_NAME_REQUIRED', message: 'An event needs a name' });
    // What Brevo would refuse is refused here: a delivery it can never accept would retry forever.
    if (!MARKETING_EVENT_KEY.test(eventName)) return err({ code: 'MARKETING.INVALID_EVENT', message: 'An event name has only letters, digits, - and _ (at most 255)' });
    for (const [key, value] of Object.entries(input.properties)) {
      const valueOk = typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));
      if (!MARKETING_EVENT_KEY.test(key) || !valueOk) {
        return err({ code: 'MARKETING.INVALID_EVENT', message: `Event property ${key} must have a name of letters, digits, - and _ and a text, number or true/false value` });
      }
    }
    const email = ownEmail(input.caller, input.identifiers.email_id ?? input.caller.email);
    if (!email.ok) return email;
    if (input.identifiers.ext_id !== undefined && input.identifiers.ext_id !== input.caller.userId) {
      return err({ code: 'MARKETING.NOT_YOUR_CONTACT', message: 'You can only track events of your own marketing contact' });
    }
    const at = this.clock.now();
    const event = { eventName, identifiers: { email_id: email.value, ext_id: input.caller.userId }, properties: input.properties, occurredAt: at };
    await this.outbox.enqueue({ kind: 'event', email: email.value, event }, at);
    return ok(undefined);
  }
}
