import type { Clock } from '../shared/clock.port.js';
import type { IdGenerator } from '../shared/ids.port.js';
import { type Result, err, ok } from '../shared/result.js';
import { type FactorChallenge, challengeExpiresAt } from './factor.entity.js';
import type { FactorStore } from './factor-store.port.js';
import { type FactorNotFound, factorNotFound } from './mfa.errors.js';

export interface IssuedChallenge {
  readonly challenge: FactorChallenge;
  readonly factorType: 'totp';
  readonly expiresAt: Date;
}

/** POST /factors/{id}/challenge: a challenge on one of the caller's own factors. */
export class ChallengeFactor {
  constructor(
    private readonly factors: FactorStore,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(input: { readonly userId: string; readonly factorId: string }): Promise<Result<IssuedChallenge, FactorNotFound>> {
    const factor = await this.factors.findById(input.factorId);
    if (!factor || factor.userId !== input.userId) return err(factorNotFound());
    const challenge: FactorChallenge = Object.freeze({ id: this.ids.next(), factorId: factor.id, createdAt: this.clock.now(), verifiedAt: null });
    await this.factors.createChallenge(challenge);
    return ok(Object.freeze({ challenge, factorType: factor.factorType, expiresAt: challengeExpiresAt(challenge) }));
  }
}
