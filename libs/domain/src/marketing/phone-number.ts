/** Numbers without an international prefix are taken as North American (SPEC §5). */
export const DEFAULT_MARKETING_COUNTRY_PREFIX = '+1';

/**
 * SPEC §5: a marketing phone number that does not start with '+' or '00' gets '+1' in front.
 * Surrounding whitespace is trimmed first; inner spacing is the caller's and is kept.
 * A blank number means "no phone": null, never a bare '+1' sent to the marketing service.
 */
export function normalizeMarketingPhone(raw: string | null | undefined): string | null {
  const phone = (raw ?? '').trim();
  if (phone === '') return null;
  if (phone.startsWith('+') || phone.startsWith('00')) return phone;
  return `${DEFAULT_MARKETING_COUNTRY_PREFIX}${phone}`;
}
