// Symbol tokens of the auth context's ports (the shared ones — CLOCK, MAILER,
// ACCESS_TOKEN_VERIFIER… — are in ../tokens.ts).

/** `AuthStores`: users, one-time codes, sessions and the rate limiter (in memory or PostgreSQL). */
export const AUTH_STORES = Symbol('AuthStores');
export const PASSWORD_HASHER = Symbol('PasswordHasher');
export const SECRET_HASHER = Symbol('SecretHasher');
export const ACCESS_TOKEN_SIGNER = Symbol('AccessTokenSigner');
/** `AuthUseCases` (createAuthUseCases) over the bound adapters. */
export const AUTH_USE_CASES = Symbol('AuthUseCases');
/** `MfaUseCases` (createMfaUseCases): the /auth/v1/factors routes. */
export const MFA_USE_CASES = Symbol('MfaUseCases');
/** The built-in verifier (its own tokens, live sessions), used by /auth/v1 whatever ACCESS_TOKEN_VERIFIER is. */
export const BUILT_IN_VERIFIER = Symbol('BuiltInAccessTokenVerifier');
/** `GoTrueCorsOptions` for the /auth/v1 CORS middleware. */
export const GOTRUE_CORS_OPTIONS = Symbol('GoTrueCorsOptions');
