import { invalidAccessToken, type InvalidAccessToken } from '../../auth/access-token.port.js';
import type { AccessTokenClaims, AccessTokenSigner, JsonWebKeySet } from '../../auth/access-token-signer.port.js';
import { AUTH_AUDIENCE } from '../../auth/auth.constants.js';
import type { Clock } from '../../shared/clock.port.js';
import { type Result, err, ok } from '../../shared/result.js';

/**
 * Issues JWT-shaped tokens (`fake.<n>.sig`) and remembers their claims; verification checks
 * that the token was issued here, the audience and the expiry by the clock — what the jose
 * adapter checks cryptographically.
 */
export class FakeAccessTokenSigner implements AccessTokenSigner {
  private readonly issued = new Map<string, AccessTokenClaims>();

  constructor(private readonly clock: Clock) {}

  sign(claims: AccessTokenClaims): Promise<string> {
    const token = `eyJmYWtlIjp0cnVlfQ.${this.issued.size + 1}.c2ln`;
    this.issued.set(token, Object.freeze({ ...claims }));
    return Promise.resolve(token);
  }

  verify(token: string): Promise<Result<AccessTokenClaims, InvalidAccessToken>> {
    const claims = this.issued.get(token);
    if (!claims) return Promise.resolve(err(invalidAccessToken()));
    if (claims.aud !== AUTH_AUDIENCE) return Promise.resolve(err(invalidAccessToken('invalid JWT: wrong audience')));
    if (claims.exp * 1000 <= this.clock.now().getTime()) return Promise.resolve(err(invalidAccessToken('invalid JWT: token is expired')));
    return Promise.resolve(ok(claims));
  }

  publicKeys(): Promise<JsonWebKeySet> {
    return Promise.resolve({ keys: [{ kty: 'oct', kid: 'fake', use: 'sig' }] });
  }

  /** Test helper: the claims a token was signed with. */
  claimsOf(token: string): AccessTokenClaims | undefined {
    return this.issued.get(token);
  }
}
