import type { AuthAssuranceLevel } from '../auth/auth-session.js';
import { type Result, err, ok } from '../shared/result.js';
import { isVerifiedFactor } from './factor.entity.js';
import type { FactorStore } from './factor-store.port.js';
import { type FactorNotFound, type InsufficientAal, factorNotFound, insufficientAal } from './mfa.errors.js';

/**
 * DELETE /factors/{id}. Removing a verified factor needs an aal2 session: a stolen password
 * alone must not be able to switch the second factor off.
 */
export class UnenrollFactor {
  constructor(private readonly factors: FactorStore) {}

  async execute(input: {
    readonly userId: string;
    readonly aal: AuthAssuranceLevel;
    readonly factorId: string;
  }): Promise<Result<{ readonly id: string }, FactorNotFound | InsufficientAal>> {
    const factor = await this.factors.findById(input.factorId);
    if (!factor || factor.userId !== input.userId) return err(factorNotFound());
    if (isVerifiedFactor(factor) && input.aal !== 'aal2') return err(insufficientAal('AAL2 required to unenroll verified factor'));
    if (!(await this.factors.delete(factor.id, input.userId))) return err(factorNotFound());
    return ok({ id: factor.id });
  }
}
