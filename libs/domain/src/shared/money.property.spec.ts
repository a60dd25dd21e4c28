import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { CURRENCIES, checkoutCurrencyFor, createMoney, formatMoney, moneyOf } from './money.js';

const amount = fc.oneof(fc.nat({ max: 10_000_000 }), fc.maxSafeNat());
const currency = fc.constantFrom(...CURRENCIES);
const symbolOf = { USD: '$', INR: '₹' } as const;

/** Strips symbol and commas, then reads the decimal text back as exact minor units. */
function parseBack(text: string): bigint {
  const [whole = '', fraction = ''] = text.replace(/^[$₹]/, '').replaceAll(',', '').split('.');
  return BigInt(whole) * 100n + BigInt(fraction.padEnd(2, '0'));
}

describe('money properties', () => {
  it('formatting, then stripping symbol and commas, gives back the amount', () => {
    fc.assert(
      fc.property(amount, currency, (minor, cur) => {
        expect(parseBack(formatMoney(moneyOf(minor, cur)))).toBe(BigInt(minor));
      }),
    );
  });

  it('starts with the currency symbol; whole amounts have no decimals, others exactly two', () => {
    fc.assert(
      fc.property(amount, currency, (minor, cur) => {
        const text = formatMoney(moneyOf(minor, cur));
        expect(text.startsWith(symbolOf[cur])).toBe(true);
        expect(text).toMatch(minor % 100 === 0 ? /^[^.]+$/ : /\.\d{2}$/);
      }),
    );
  });

  it('INR uses Indian grouping: last three digits, then pairs', () => {
    fc.assert(
      fc.property(amount, (minor) => {
        expect(formatMoney(moneyOf(minor, 'INR'))).toMatch(/^₹(\d{1,3}|\d{1,2}(,\d{2})*,\d{3})(\.\d{2})?$/);
      }),
    );
  });

  it('USD uses Western grouping: groups of three', () => {
    fc.assert(
      fc.property(amount, (minor) => {
        expect(formatMoney(moneyOf(minor, 'USD'))).toMatch(/^\$\d{1,3}(,\d{3})*(\.\d{2})?$/);
      }),
    );
  });

  it('accepts exactly the non-negative safe integers', () => {
    fc.assert(
      fc.property(fc.oneof(fc.integer(), fc.double(), fc.maxSafeInteger()), currency, (value, cur) => {
        expect(createMoney(value, cur).ok).toBe(Number.isSafeInteger(value) && value >= 0);
      }),
    );
  });

  it('checkout is INR only for IN, whatever the case and surrounding whitespace', () => {
    const spaces = fc.stringMatching(/^\s{0,3}$/);
    const inVariant = fc
      .tuple(spaces, fc.constantFrom('IN', 'in', 'In', 'iN'), spaces)
      .map(([a, code, b]) => a + code + b);
    fc.assert(fc.property(inVariant, (code) => expect(checkoutCurrencyFor(code)).toBe('INR')));
    fc.assert(
      fc.property(
        fc.string().filter((s) => s.trim().toUpperCase() !== 'IN'),
        (code) => expect(checkoutCurrencyFor(code)).toBe('USD'),
      ),
    );
  });
});
