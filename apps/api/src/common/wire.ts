import { MINOR_UNITS_PER_MAJOR } from '@kiln/domain';

/** Dates go on the wire as ISO 8601 text (UTC). */
export function iso(date: Date): string;
export function iso(date: Date | null): string | null;
export function iso(date: Date | null): string | null {
  return date === null ? null : date.toISOString();
}

/**
 * Integer minor units (2499_00 paise) as the major-unit number SPEC shows (2499; 999 → 9.99).
 * Dividing an integer by 100 gives the double nearest the two-decimal value, which JSON prints
 * exactly as written.
 */
export function majorUnits(minor: number): number {
  return minor / MINOR_UNITS_PER_MAJOR;
}
