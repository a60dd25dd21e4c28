import type { DomainError } from './domain-error.js';
import { type Result, err, ok } from './result.js';

/** The currencies Kiln charges in (SPEC §3 preferred_currency, §9 checkout currency). */
export const CURRENCIES = ['USD', 'INR'] as const;
export type Currency = (typeof CURRENCIES)[number];

/** Both currencies have two minor-unit digits (cents, paise). */
export const MINOR_UNITS_PER_MAJOR = 100;

declare const moneyBrand: unique symbol;

/**
 * An amount of money in integer minor units. Branded so every value has passed a constructor:
 * floats never carry money, and a negative amount cannot reach formatting or arithmetic.
 */
export type Money = {
  readonly amountMinor: number;
  readonly currency: Currency;
  readonly [moneyBrand]: true;
};

export interface InvalidAmountError extends DomainError<'MONEY.INVALID_AMOUNT'> {
  readonly amount: number;
}
export interface UnknownCurrencyError extends DomainError<'MONEY.UNKNOWN_CURRENCY'> {
  readonly currency: string;
}
export type MoneyError = InvalidAmountError | UnknownCurrencyError;

const invalidAmount = (amount: number, why: string): InvalidAmountError => ({
  code: 'MONEY.INVALID_AMOUNT',
  message: `Invalid money amount ${amount}: ${why}`,
  amount,
});

/** Smart constructor for untrusted input: a non-negative safe integer of minor units. */
export function createMoney(amountMinor: number, currency: Currency): Result<Money, MoneyError> {
  if (!Number.isSafeInteger(amountMinor)) {
    return err(invalidAmount(amountMinor, 'minor units must be a safe integer'));
  }
  if (amountMinor < 0) return err(invalidAmount(amountMinor, 'must not be negative'));
  if (!isCurrency(currency)) return err(unknownCurrency(String(currency)));
  // `+ 0` turns -0 into 0 so two equal amounts are also Object.is-equal.
  return ok(Object.freeze({ amountMinor: amountMinor + 0, currency }) as Money);
}

/**
 * For amounts the code itself owns (catalog prices, constants): an invalid one is a bug,
 * so it throws instead of returning a Result.
 */
export function moneyOf(amountMinor: number, currency: Currency): Money {
  const result = createMoney(amountMinor, currency);
  if (!result.ok) throw new RangeError(result.error.message);
  return result.value;
}

/**
 * From major units as people write them (25, 9.99). Rejects more precision than the
 * currency has instead of silently rounding someone's price.
 */
export function moneyFromMajor(amountMajor: number, currency: Currency): Result<Money, MoneyError> {
  if (!Number.isFinite(amountMajor)) return err(invalidAmount(amountMajor, 'must be a finite number'));
  const scaled = amountMajor * MINOR_UNITS_PER_MAJOR;
  const minor = Math.round(scaled);
  // Binary floats make 9.99 * 100 = 999.0000000000001; tolerate that, not a third decimal.
  if (Math.abs(scaled - minor) > 1e-6) {
    return err(invalidAmount(amountMajor, 'has more than two decimals'));
  }
  return createMoney(minor, currency);
}

const unknownCurrency = (currency: string): UnknownCurrencyError => ({
  code: 'MONEY.UNKNOWN_CURRENCY',
  message: `Unknown currency '${currency}': expected USD or INR`,
  currency,
});

export function isCurrency(value: unknown): value is Currency {
  return typeof value === 'string' && (CURRENCIES as readonly string[]).includes(value);
}

/** Reads a currency code from the wire: SPEC §3 writes both 'USD' and 'usd'. */
export function parseCurrency(raw: string): Result<Currency, UnknownCurrencyError> {
  const code = raw.trim().toUpperCase();
  return isCurrency(code) ? ok(code) : err(unknownCurrency(raw));
}

export function moneyEquals(a: Money, b: Money): boolean {
  return a.amountMinor === b.amountMinor && a.currency === b.currency;
}

/** SPEC §9: checkout is in INR only when the detected country code is IN, else USD. */
export function checkoutCurrencyFor(countryCode: string | null): Currency {
  return countryCode !== null && countryCode.trim().toUpperCase() === 'IN' ? 'INR' : 'USD';
}

const SYMBOLS: Readonly<Record<Currency, string>> = { USD: '$', INR: '₹' };

export function currencySymbol(currency: Currency): string {
  return SYMBOLS[currency];
}

/**
 * SPEC §9: USD with '$' and Western grouping ('$1,234.50'); INR with '₹' and Indian grouping
 * ('₹1,23,45,678'). Whole amounts show no decimals ('$25'); others show exactly two.
 * Written by hand rather than with Intl so the output never depends on the runtime's ICU data.
 */
export function formatMoney(money: Money): string {
  const { amountMinor, currency } = money;
  const minor = amountMinor % MINOR_UNITS_PER_MAJOR;
  // Subtract before dividing: amountMinor / 100 can round up to the next integer near 2^53.
  const major = (amountMinor - minor) / MINOR_UNITS_PER_MAJOR;
  const digits = String(major);
  const grouped = currency === 'INR' ? groupIndian(digits) : groupWestern(digits);
  const fraction = minor === 0 ? '' : `.${String(minor).padStart(2, '0')}`;
  return `${SYMBOLS[currency]}${grouped}${fraction}`;
}

/** 1234567 → 1,234,567 */
function groupWestern(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+$)/g, ',');
}

/** 12345678 → 1,23,45,678: the last three digits, then pairs (lakh, crore). */
function groupIndian(digits: string): string {
  if (digits.length <= 3) return digits;
  const head = digits.slice(0, -3);
  const tail = digits.slice(-3);
  return `${head.replace(/\B(?=(\d{2})+$)/g, ',')},${tail}`;
}
