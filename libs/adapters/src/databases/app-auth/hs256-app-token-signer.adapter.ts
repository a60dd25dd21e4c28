import type { AccessTokenClaims, AccessTokenSigner, Clock, InvalidAccessToken, JsonWebKeySet, Result } from '@kiln/domain';
import { AUTH_AUDIENCE, err, invalidAccessToken, ok } from '@kiln/domain';
import { SignJWT, jwtVerify } from 'jose';

/** A project's secret shorter than this is refused (HS256 keys shorter than the hash are brute-forceable). */
const MIN_SECRET_LENGTH = 32;

/**
 * Access tokens of a project's app users (docs/databases.md "keys"): HS256 with the project's
 * own JWT secret, GoTrue's claims plus `ref`. `verify` accepts HS256 only, audience
 * `authenticated`, an unexpired token (by the injected clock) and this project's `ref` — a token
 * of another project, or the anon key, is refused. There are no public keys: the secret is
 * symmetric and never leaves Kiln.
 */
export class Hs256AppTokenSigner implements AccessTokenSigner {
  private readonly key: Uint8Array;

  constructor(
    private readonly ref: string,
    jwtSecret: string,
    private readonly clock: Clock,
  ) {
    if (jwtSecret.length < MIN_SECRET_LENGTH) throw new Error(`A project's JWT secret must be at least ${MIN_SECRET_LENGTH} characters`);
    this.key = new TextEncoder().encode(jwtSecret);
  }

  sign(claims: AccessTokenClaims): Promise<string> {
    return new SignJWT({ ...claims, ref: this.ref } as unknown as Record<string, unknown>)
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .sign(this.key);
  }

  async verify(token: string): Promise<Result<AccessTokenClaims, InvalidAccessToken>> {
    try {
      const { payload } = await jwtVerify(token, this.key, {
        algorithms: ['HS256'],
        audience: AUTH_AUDIENCE,
        currentDate: this.clock.now(),
        requiredClaims: ['sub', 'exp', 'session_id'],
      });
      if (payload['ref'] !== this.ref) return err(invalidAccessToken('invalid JWT: the token belongs to another project'));
      if (typeof payload.sub !== 'string' || typeof payload['session_id'] !== 'string') return err(invalidAccessToken());
      return ok(payload as unknown as AccessTokenClaims);
    } catch (error) {
      const expired = (error as { code?: unknown }).code === 'ERR_JWT_EXPIRED';
      return err(invalidAccessToken(expired ? 'invalid JWT: token is expired' : undefined));
    }
  }

  publicKeys(): Promise<JsonWebKeySet> {
    return Promise.resolve({ keys: [] });
  }
}
