import type { DomainError } from '../shared/domain-error.js';
import type { Currency } from '../shared/money.js';
import { type Result, err, ok } from '../shared/result.js';

/** SPEC §7: the custom events the product sends besides page views and purchases. */
export const CUSTOM_EVENT_NAMES = [
  'Login',
  'Signup',
  'Project Created',
  'Project Opened',
  'Subscription ViewPlan',
  'Subscription ChangePlan',
  'Domain Connected',
  'Domain Removed',
] as const;
export type KnownCustomEventName = (typeof CUSTOM_EVENT_NAMES)[number];

/** Page views travel as a custom event with this name and a `page_path` property. */
export const PAGE_VIEW_EVENT_NAME = 'page_view';
export const PURCHASE_EVENT_NAME = 'purchase';

export type TrackingValue = string | number | boolean | null;
export type TrackingProperties = Readonly<Record<string, TrackingValue>>;

export interface CustomTrackingEvent {
  readonly kind: 'custom';
  readonly name: string;
  readonly properties: TrackingProperties;
}

/** An interaction on a page, reported with a category and an action (and optional label/value). */
export interface PageTrackingEvent {
  readonly kind: 'page';
  readonly name: string;
  readonly category: string;
  readonly action: string;
  readonly label?: string;
  readonly value?: number;
}

export interface PurchaseTrackingEvent {
  readonly kind: 'purchase';
  readonly name: typeof PURCHASE_EVENT_NAME;
  readonly planId: string;
  readonly planName: string;
  /** In major units (25 for Pro Monthly in USD), as analytics reports show revenue. */
  readonly planPrice: number;
  readonly currency?: Currency;
}

export type TrackingEvent = CustomTrackingEvent | PageTrackingEvent | PurchaseTrackingEvent;

/** Untrusted input, e.g. from the web client: fields may be missing or of the wrong type. */
export type TrackingEventInput =
  | { readonly kind: 'custom'; readonly name?: string | null; readonly properties?: TrackingProperties }
  | {
      readonly kind: 'page';
      readonly name?: string | null;
      readonly category?: string | null;
      readonly action?: string | null;
      readonly label?: string | null;
      readonly value?: number | null;
    }
  | {
      readonly kind: 'purchase';
      readonly planId?: string | null;
      readonly planName?: string | null;
      readonly planPrice?: unknown;
      readonly currency?: Currency;
    };

export type TrackingEventErrorCode =
  | 'ANALYTICS.EVENT_NAME_REQUIRED'
  | 'ANALYTICS.PAGE_CATEGORY_REQUIRED'
  | 'ANALYTICS.PAGE_ACTION_REQUIRED'
  | 'ANALYTICS.PLAN_ID_REQUIRED'
  | 'ANALYTICS.PLAN_NAME_REQUIRED'
  | 'ANALYTICS.INVALID_PLAN_PRICE';
export type TrackingEventError = DomainError<TrackingEventErrorCode>;

export const TRACKING_EVENT_MESSAGES: Readonly<Record<TrackingEventErrorCode, string>> = {
  'ANALYTICS.EVENT_NAME_REQUIRED': 'Tracking events need a non-empty event name',
  'ANALYTICS.PAGE_CATEGORY_REQUIRED': 'Page events need a category',
  'ANALYTICS.PAGE_ACTION_REQUIRED': 'Page events need an action',
  'ANALYTICS.PLAN_ID_REQUIRED': 'Purchase tracking needs a planId',
  'ANALYTICS.PLAN_NAME_REQUIRED': 'Purchase tracking needs a planName',
  'ANALYTICS.INVALID_PLAN_PRICE': 'Purchase tracking needs a numeric planPrice',
};

const fail = (code: TrackingEventErrorCode) => err<TrackingEventError>({ code, message: TRACKING_EVENT_MESSAGES[code] });

/** Trimmed text, or null when missing or blank: whitespace is not a name. */
const text = (value: string | null | undefined): string | null => {
  const trimmed = typeof value === 'string' ? value.trim() : '';
  return trimmed === '' ? null : trimmed;
};

/**
 * SPEC §5: every event needs a non-empty name; page events need category and action; purchase
 * tracking needs planId, planName and a numeric planPrice. The first broken rule is reported.
 */
export function validateTrackingEvent(input: TrackingEventInput): Result<TrackingEvent, TrackingEventError> {
  switch (input.kind) {
    case 'custom': {
      const name = text(input.name);
      if (name === null) return fail('ANALYTICS.EVENT_NAME_REQUIRED');
      return ok(Object.freeze({ kind: 'custom', name, properties: Object.freeze({ ...input.properties }) }));
    }
    case 'page': {
      const name = text(input.name);
      if (name === null) return fail('ANALYTICS.EVENT_NAME_REQUIRED');
      const category = text(input.category);
      if (category === null) return fail('ANALYTICS.PAGE_CATEGORY_REQUIRED');
      const action = text(input.action);
      if (action === null) return fail('ANALYTICS.PAGE_ACTION_REQUIRED');
      const label = text(input.label);
      const value = input.value;
      return ok(
        Object.freeze({
          kind: 'page',
          name,
          category,
          action,
          ...(label === null ? {} : { label }),
          ...(typeof value === 'number' && Number.isFinite(value) ? { value } : {}),
        }),
      );
    }
    case 'purchase': {
      const planId = text(input.planId);
      if (planId === null) return fail('ANALYTICS.PLAN_ID_REQUIRED');
      const planName = text(input.planName);
      if (planName === null) return fail('ANALYTICS.PLAN_NAME_REQUIRED');
      const price = input.planPrice;
      // "Numeric" means a real number: '25', NaN, Infinity and negative prices are refused.
      if (typeof price !== 'number' || !Number.isFinite(price) || price < 0) {
        return fail('ANALYTICS.INVALID_PLAN_PRICE');
      }
      return ok(
        Object.freeze({
          kind: 'purchase',
          name: PURCHASE_EVENT_NAME,
          planId,
          planName,
          planPrice: price + 0,
          ...(input.currency === undefined ? {} : { currency: input.currency }),
        }),
      );
    }
  }
}
