/**
 * TOTP as authenticator apps expect it (RFC 6238 defaults, the same as GoTrue's): HMAC-SHA1,
 * six digits, 30-second steps. One step either side is accepted, for clock drift.
 */
export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_DIGITS = 6;
export const TOTP_ALGORITHM = 'SHA1';
export const TOTP_WINDOW_STEPS = 1;
/** 160-bit secrets (RFC 4226 recommends at least 128, and 160 for SHA-1). */
export const TOTP_SECRET_BYTES = 20;

/** A challenge must be verified within five minutes (GoTrue's MFA_CHALLENGE_EXPIRY_DURATION). */
export const MFA_CHALLENGE_TTL_SECONDS = 300;
/** At most ten factors per account (GoTrue's MFA_MAX_ENROLLED_FACTORS). */
export const MFA_MAX_ENROLLED_FACTORS = 10;
/** Friendly names are shown in lists; longer than this is refused. */
export const MFA_FRIENDLY_NAME_MAX_CHARS = 100;
/** The `issuer` of the otpauth URI when the client sends none. */
export const MFA_DEFAULT_ISSUER = 'Kiln';
