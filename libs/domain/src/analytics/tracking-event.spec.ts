import { describe, expect, it } from '@jest/globals';
import { CUSTOM_EVENT_NAMES, type TrackingEventInput, validateTrackingEvent } from './tracking-event.js';

const expectError = (input: TrackingEventInput, code: string, message: string) => {
  expect(validateTrackingEvent(input)).toEqual({ ok: false, error: { code, message } });
};

describe('validateTrackingEvent — custom events (SPEC §5)', () => {
  it('accepts a named event with properties', () => {
    expect(validateTrackingEvent({ kind: 'custom', name: 'Project Created', properties: { projectId: 'p1' } })).toEqual({
      ok: true,
      value: { kind: 'custom', name: 'Project Created', properties: { projectId: 'p1' } },
    });
  });

  it('defaults properties to none and trims the name', () => {
    const result = validateTrackingEvent({ kind: 'custom', name: '  Login ' });
    expect(result.ok && result.value).toEqual({ kind: 'custom', name: 'Login', properties: {} });
  });

  it.each([[''], ['   '], [null], [undefined]])('needs a non-empty event name (%p)', (name) => {
    expectError({ kind: 'custom', name }, 'ANALYTICS.EVENT_NAME_REQUIRED', 'Tracking events need a non-empty event name');
  });

  it('accepts every SPEC §7 custom event name', () => {
    for (const name of CUSTOM_EVENT_NAMES) expect(validateTrackingEvent({ kind: 'custom', name }).ok).toBe(true);
  });

  it('copies properties so later changes by the caller do not leak into the event', () => {
    const properties: Record<string, string> = { a: '1' };
    const result = validateTrackingEvent({ kind: 'custom', name: 'Login', properties });
    properties['a'] = '2';
    expect(result.ok && result.value.kind === 'custom' && result.value.properties['a']).toBe('1');
  });
});

describe('validateTrackingEvent — page events (SPEC §5)', () => {
  const page = { kind: 'page', name: 'click', category: 'builder', action: 'publish' } as const;

  it('accepts name, category and action, with optional label and value', () => {
    expect(validateTrackingEvent({ ...page, label: 'header', value: 3 })).toEqual({
      ok: true,
      value: { kind: 'page', name: 'click', category: 'builder', action: 'publish', label: 'header', value: 3 },
    });
  });

  it('drops a blank label and a non-finite value instead of sending them', () => {
    const result = validateTrackingEvent({ ...page, label: ' ', value: Number.NaN });
    expect(result.ok && result.value).toEqual({ kind: 'page', name: 'click', category: 'builder', action: 'publish' });
  });

  it('needs an event name', () => {
    expectError({ ...page, name: '' }, 'ANALYTICS.EVENT_NAME_REQUIRED', 'Tracking events need a non-empty event name');
  });

  it.each([[''], [' '], [null], [undefined]])('needs a category (%p)', (category) => {
    expectError({ ...page, category }, 'ANALYTICS.PAGE_CATEGORY_REQUIRED', 'Page events need a category');
  });

  it.each([[''], [' '], [null], [undefined]])('needs an action (%p)', (action) => {
    expectError({ ...page, action }, 'ANALYTICS.PAGE_ACTION_REQUIRED', 'Page events need an action');
  });
});

describe('validateTrackingEvent — purchases (SPEC §5)', () => {
  const purchase = { kind: 'purchase', planId: 'pro_monthly', planName: 'Pro Monthly', planPrice: 25 } as const;

  it('accepts planId, planName and a numeric planPrice', () => {
    expect(validateTrackingEvent({ ...purchase, currency: 'USD' })).toEqual({
      ok: true,
      value: {
        kind: 'purchase',
        name: 'purchase',
        planId: 'pro_monthly',
        planName: 'Pro Monthly',
        planPrice: 25,
        currency: 'USD',
      },
    });
  });

  it('accepts a price of 0 and a fractional price', () => {
    expect(validateTrackingEvent({ ...purchase, planPrice: 0 }).ok).toBe(true);
    expect(validateTrackingEvent({ ...purchase, planPrice: 9.99 }).ok).toBe(true);
  });

  it.each([[''], [null], [undefined]])('needs a planId (%p)', (planId) => {
    expectError({ ...purchase, planId }, 'ANALYTICS.PLAN_ID_REQUIRED', 'Purchase tracking needs a planId');
  });

  it.each([[''], [null], [undefined]])('needs a planName (%p)', (planName) => {
    expectError({ ...purchase, planName }, 'ANALYTICS.PLAN_NAME_REQUIRED', 'Purchase tracking needs a planName');
  });

  it.each([['25'], [null], [undefined], [Number.NaN], [Number.POSITIVE_INFINITY], [-1], [{}]])(
    'needs a numeric planPrice (%p)',
    (planPrice) => {
      expectError({ ...purchase, planPrice }, 'ANALYTICS.INVALID_PLAN_PRICE', 'Purchase tracking needs a numeric planPrice');
    },
  );
});
