import type { DomainError } from '../shared/domain-error.js';
import type { Result } from '../shared/result.js';

/** What a verified access token says about its bearer (GoTrue's JWT claims, camel-cased). */
export interface AccessClaims {
  /** The user id (`sub`). */
  readonly userId: string;
  readonly email: string | null;
  /** The server-side session the token belongs to (`session_id`); null for external issuers that omit it. */
  readonly sessionId: string | null;
  readonly role: string;
  readonly aal: 'aal1' | 'aal2';
  readonly expiresAt: Date;
  readonly userMetadata: Readonly<Record<string, unknown>>;
}

export type InvalidAccessToken = DomainError<'AUTH.INVALID_TOKEN'>;
export type MissingAccessToken = DomainError<'AUTH.MISSING_TOKEN'>;
export type SessionEnded = DomainError<'AUTH.SESSION_ENDED'>;
/** A one-factor (aal1) session of an account that has a verified second factor: the code is still owed. */
export type SecondFactorRequired = DomainError<'AUTH.SECOND_FACTOR_REQUIRED'>;
export type AccessTokenError = InvalidAccessToken | MissingAccessToken | SessionEnded | SecondFactorRequired;

export const invalidAccessToken = (message = 'invalid JWT: unable to parse or verify signature'): InvalidAccessToken => ({
  code: 'AUTH.INVALID_TOKEN',
  message,
});
export const missingAccessToken = (): MissingAccessToken => ({
  code: 'AUTH.MISSING_TOKEN',
  message: 'This endpoint requires a Bearer token',
});
export const secondFactorRequired = (): SecondFactorRequired => ({
  code: 'AUTH.SECOND_FACTOR_REQUIRED',
  message: 'This account has a second factor: verify it (aal2) before using this session',
});
export const sessionEnded = (): SessionEnded => ({ code: 'AUTH.SESSION_ENDED', message: 'Session not found' });

/**
 * Checks a bearer token. The built-in auth verifies the signature, `alg`, `aud` and `exp` and
 * that the session has not ended; an external issuer (a real Supabase project) is verified
 * against its JWKS or secret. The API's guard depends on this port only.
 */
export interface AccessTokenVerifier {
  verify(token: string): Promise<Result<AccessClaims, AccessTokenError>>;
}
