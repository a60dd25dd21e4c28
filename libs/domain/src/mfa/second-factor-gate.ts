import { type AccessClaims, type AccessTokenError, type AccessTokenVerifier, secondFactorRequired } from '../auth/access-token.port.js';
import { type Result, err } from '../shared/result.js';
import { isVerifiedFactor } from './factor.entity.js';
import type { FactorStore } from './factor-store.port.js';

/**
 * The API's verifier when the built-in auth signs the tokens: a valid token of an aal1 session
 * is refused when its account has a verified factor. The password alone then opens nothing
 * but /auth/v1 (where the code is asked for), not the product's routes.
 */
export class SecondFactorGate implements AccessTokenVerifier {
  constructor(
    private readonly inner: AccessTokenVerifier,
    private readonly factors: FactorStore,
  ) {}

  async verify(token: string): Promise<Result<AccessClaims, AccessTokenError>> {
    const verified = await this.inner.verify(token);
    if (!verified.ok || verified.value.aal === 'aal2') return verified;
    const factors = await this.factors.listForUser(verified.value.userId);
    return factors.some(isVerifiedFactor) ? err(secondFactorRequired()) : verified;
  }
}
