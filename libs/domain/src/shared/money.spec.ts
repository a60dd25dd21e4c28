import { describe, expect, it } from '@jest/globals';
import {
  type Currency,
  checkoutCurrencyFor,
  createMoney,
  currencySymbol,
  formatMoney,
  moneyEquals,
  moneyFromMajor,
  moneyOf,
  parseCurrency,
} from './money.js';

describe('createMoney', () => {
  it('accepts a non-negative safe integer of minor units', () => {
    const result = createMoney(2500, 'USD');
    expect(result).toEqual({ ok: true, value: { amountMinor: 2500, currency: 'USD' } });
  });

  it('accepts zero (the free plan price)', () => {
    expect(createMoney(0, 'INR').ok).toBe(true);
  });

  it('returns a frozen value', () => {
    const result = createMoney(1, 'USD');
    expect(result.ok && Object.isFrozen(result.value)).toBe(true);
  });

  it.each([
    [-1, 'must not be negative'],
    [1.5, 'safe integer'],
    [Number.NaN, 'safe integer'],
    [Number.POSITIVE_INFINITY, 'safe integer'],
    [Number.MAX_SAFE_INTEGER + 1, 'safe integer'],
  ])('rejects %p with MONEY.INVALID_AMOUNT', (amount, why) => {
    const result = createMoney(amount, 'USD');
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.code).toBe('MONEY.INVALID_AMOUNT');
      expect(result.error.message).toContain(why);
    }
  });

  it('rejects a currency that slipped past the type system', () => {
    const result = createMoney(100, 'EUR' as Currency);
    expect(result).toEqual({
      ok: false,
      error: { code: 'MONEY.UNKNOWN_CURRENCY', message: "Unknown currency 'EUR': expected USD or INR", currency: 'EUR' },
    });
  });

  it('normalises -0 to 0', () => {
    const result = createMoney(-0, 'USD');
    expect(result.ok && Object.is(result.value.amountMinor, 0)).toBe(true);
  });
});

describe('moneyOf', () => {
  it('builds trusted amounts', () => {
    expect(moneyOf(249900, 'INR')).toEqual({ amountMinor: 249900, currency: 'INR' });
  });

  it('throws on an invalid amount because it is a bug in our own constants', () => {
    expect(() => moneyOf(-5, 'USD')).toThrow(RangeError);
  });
});

describe('moneyFromMajor', () => {
  it.each([
    [25, 'USD', 2500],
    [9.99, 'USD', 999],
    [499, 'INR', 49900],
    [0.1, 'USD', 10],
    [1234.5, 'USD', 123450],
  ] as const)('%p %s is %p minor units', (major, currency, minor) => {
    expect(moneyFromMajor(major, currency)).toEqual({ ok: true, value: { amountMinor: minor, currency } });
  });

  it.each([[9.999], [Number.NaN], [Number.NEGATIVE_INFINITY], [-1]])('rejects %p', (major) => {
    const result = moneyFromMajor(major, 'USD');
    expect(!result.ok && result.error.code).toBe('MONEY.INVALID_AMOUNT');
  });
});

describe('parseCurrency', () => {
  it.each([
    ['USD', 'USD'],
    ['usd', 'USD'],
    [' inr ', 'INR'],
  ])('reads %p as %p', (raw, currency) => {
    expect(parseCurrency(raw)).toEqual({ ok: true, value: currency });
  });

  it('rejects anything else', () => {
    const result = parseCurrency('eur');
    expect(!result.ok && result.error.code).toBe('MONEY.UNKNOWN_CURRENCY');
  });
});

describe('moneyEquals', () => {
  it('compares by value', () => {
    expect(moneyEquals(moneyOf(100, 'USD'), moneyOf(100, 'USD'))).toBe(true);
    expect(moneyEquals(moneyOf(100, 'USD'), moneyOf(100, 'INR'))).toBe(false);
    expect(moneyEquals(moneyOf(100, 'USD'), moneyOf(101, 'USD'))).toBe(false);
  });
});

describe('checkoutCurrencyFor (SPEC §9)', () => {
  it.each([
    ['IN', 'INR'],
    ['in', 'INR'],
    [' In ', 'INR'],
    ['\tIN\n', 'INR'],
    ['US', 'USD'],
    ['GB', 'USD'],
    ['IND', 'USD'],
    ['', 'USD'],
    [null, 'USD'],
  ] as const)('%p → %s', (code, currency) => {
    expect(checkoutCurrencyFor(code)).toBe(currency);
  });
});

describe('formatMoney (SPEC §9)', () => {
  it.each([
    [0, 'USD', '$0'],
    [2500, 'USD', '$25'],
    [24000, 'USD', '$240'],
    [999, 'USD', '$9.99'],
    [5, 'USD', '$0.05'],
    [50, 'USD', '$0.50'],
    [123450, 'USD', '$1,234.50'],
    [100000, 'USD', '$1,000'],
    [123456789, 'USD', '$1,234,567.89'],
    [12345678900, 'USD', '$123,456,789'],
    [249900, 'INR', '₹2,499'],
    [2400000, 'INR', '₹24,000'],
    [49900, 'INR', '₹499'],
    [10000000, 'INR', '₹1,00,000'],
    [1234567800, 'INR', '₹1,23,45,678'],
    [1234567805, 'INR', '₹1,23,45,678.05'],
    [99, 'INR', '₹0.99'],
  ] as const)('%p %s → %s', (minor, currency, text) => {
    expect(formatMoney(moneyOf(minor, currency))).toBe(text);
  });

  it('formats the largest safe amount exactly', () => {
    expect(formatMoney(moneyOf(Number.MAX_SAFE_INTEGER, 'USD'))).toBe('$90,071,992,547,409.91');
    expect(formatMoney(moneyOf(Number.MAX_SAFE_INTEGER, 'INR'))).toBe('₹9,00,71,99,25,47,409.91');
  });

  it('knows each currency symbol', () => {
    expect(currencySymbol('USD')).toBe('$');
    expect(currencySymbol('INR')).toBe('₹');
  });
});
