/** The header auth-js sends with every request and reads back on errors. */
export const API_VERSION_HEADER = 'X-Supabase-Api-Version';

/** The API versions GoTrue knows, newest last. */
export const API_VERSIONS = ['2024-01-01'] as const;
export type ApiVersion = (typeof API_VERSIONS)[number];

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * GoTrue's DetermineClosestAPIVersion: the newest known version not after the requested date.
 * null means the initial (unversioned) API: no header, absent or malformed, or a date before
 * 2024-01-01 — errors then take the old `{ code: <status>, error_code, msg }` shape.
 */
export function negotiateApiVersion(raw: string | string[] | undefined): ApiVersion | null {
  const text = Array.isArray(raw) ? raw[0] : raw;
  if (typeof text !== 'string') return null;
  const match = DATE.exec(text.trim());
  if (!match) return null;
  const requested = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  if (Number.isNaN(requested) || new Date(requested).toISOString().slice(0, 10) !== text.trim()) return null;
  let chosen: ApiVersion | null = null;
  for (const version of API_VERSIONS) if (Date.parse(`${version}T00:00:00Z`) <= requested) chosen = version;
  return chosen;
}
