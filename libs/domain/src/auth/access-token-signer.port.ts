import type { Result } from '../shared/result.js';
import type { InvalidAccessToken } from './access-token.port.js';
import type { AuthMethodReference } from './auth-session.js';
import type { JsonObject } from './auth-user.entity.js';

/**
 * The claims of an access token, named as GoTrue names them (they are the wire format that
 * Supabase clients and Postgres RLS policies read).
 */
export interface AccessTokenClaims {
  readonly iss: string;
  readonly sub: string;
  readonly aud: string;
  /** Unix seconds. */
  readonly exp: number;
  readonly iat: number;
  readonly email: string;
  readonly phone: string;
  readonly app_metadata: JsonObject;
  readonly user_metadata: JsonObject;
  readonly role: string;
  readonly aal: 'aal1' | 'aal2';
  readonly amr: readonly AuthMethodReference[];
  readonly session_id: string;
  readonly is_anonymous: boolean;
}

/** A JSON Web Key Set (RFC 7517) with public keys only. */
export interface JsonWebKeySet {
  readonly keys: readonly JsonObject[];
}

/**
 * Signs and checks Kiln's own access tokens (JWTs). `verify` checks the signature against an
 * allow-list of algorithms, the audience and the expiry (by the injected clock); it does not
 * know about sessions — BuiltInAccessTokenVerifier adds that.
 */
export interface AccessTokenSigner {
  sign(claims: AccessTokenClaims): Promise<string>;
  verify(token: string): Promise<Result<AccessTokenClaims, InvalidAccessToken>>;
  /** The public keys clients may verify tokens with (GET /.well-known/jwks.json). */
  publicKeys(): Promise<JsonWebKeySet>;
}
