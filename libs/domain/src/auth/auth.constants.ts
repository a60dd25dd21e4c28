/**
 * Kiln's auth values (GOTRUE.md "Kiln's values"): stricter than GoTrue's defaults on purpose.
 * One place, so docs, tests and adapters read the same numbers.
 */

/** The `aud` claim and the `aud` field of users (GoTrue's default audience). */
export const AUTH_AUDIENCE = 'authenticated';
/** The `role` claim and the `role` field of users. */
export const AUTH_ROLE = 'authenticated';

/** Access tokens live one hour. */
export const ACCESS_TOKEN_TTL_SECONDS = 60 * 60;
/** A revoked refresh token presented this soon after its revocation is still honoured. */
export const REFRESH_REUSE_INTERVAL_MS = 10_000;

/** One-time codes: six digits, valid ten minutes, dead after five wrong tries. */
export const CODE_DIGITS = 6;
export const CODE_TTL_MS = 10 * 60_000;
export const CODE_MAX_FAILED_ATTEMPTS = 5;
/** A mail of one kind goes to one address at most once a minute. */
export const MAIL_COOLDOWN_MS = 60_000;

/** Passwords: at least eight characters (GoTrue: six); longer than this is refused as abuse. */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 1024;

/** Random bytes in a session's first refresh token and in its token secret. */
export const REFRESH_TOKEN_BYTES = 32;

/** user_metadata is stored and put into every access token: keep it small. */
export const USER_METADATA_MAX_CHARS = 16_384;
