import type { Factor, FactorChallenge } from '../../mfa/factor.entity.js';
import type { FactorStore, InsertFactorOutcome, VerificationOutcome } from '../../mfa/factor-store.port.js';
import type { Pause } from '../in-memory-credit-ledger.js';

/**
 * Factors and challenges in Maps. `recordVerification` checks and writes in one synchronous
 * step after its pause: the in-memory equivalent of the conditional UPDATE.
 */
export class InMemoryFactorStore implements FactorStore {
  private readonly factors = new Map<string, Factor>();
  private readonly challenges = new Map<string, FactorChallenge>();

  constructor(private readonly pause: Pause = () => Promise.resolve()) {}

  async listForUser(userId: string): Promise<readonly Factor[]> {
    await this.pause();
    return [...this.factors.values()].filter((factor) => factor.userId === userId);
  }

  async findById(id: string): Promise<Factor | null> {
    await this.pause();
    return this.factors.get(id) ?? null;
  }

  async insert(factor: Factor): Promise<InsertFactorOutcome> {
    await this.pause();
    if (this.factors.has(factor.id)) throw new Error(`Factor ${factor.id} already exists`);
    const taken = factor.friendlyName !== '' && [...this.factors.values()].some((f) => f.userId === factor.userId && f.friendlyName === factor.friendlyName);
    if (taken) return 'name_taken';
    this.factors.set(factor.id, Object.freeze({ ...factor }));
    return 'inserted';
  }

  async deleteUnverified(userId: string): Promise<void> {
    await this.pause();
    for (const factor of [...this.factors.values()]) {
      if (factor.userId === userId && factor.status === 'unverified') this.remove(factor.id);
    }
  }

  async delete(factorId: string, userId: string): Promise<boolean> {
    await this.pause();
    if (this.factors.get(factorId)?.userId !== userId) return false;
    this.remove(factorId);
    return true;
  }

  async createChallenge(challenge: FactorChallenge): Promise<void> {
    await this.pause();
    if (!this.factors.has(challenge.factorId)) throw new Error(`Factor ${challenge.factorId} does not exist`);
    this.challenges.set(challenge.id, Object.freeze({ ...challenge }));
  }

  async findChallenge(id: string): Promise<FactorChallenge | null> {
    await this.pause();
    return this.challenges.get(id) ?? null;
  }

  async recordVerification(input: { factorId: string; challengeId: string; step: number; at: Date }): Promise<VerificationOutcome> {
    await this.pause();
    const factor = this.factors.get(input.factorId);
    const challenge = this.challenges.get(input.challengeId);
    if (!factor || !challenge || challenge.factorId !== factor.id || challenge.verifiedAt !== null) return 'already_used';
    if (factor.lastUsedStep !== null && factor.lastUsedStep >= input.step) return 'already_used';
    this.challenges.set(challenge.id, Object.freeze({ ...challenge, verifiedAt: input.at }));
    this.factors.set(factor.id, Object.freeze({ ...factor, status: 'verified', lastUsedStep: input.step, updatedAt: input.at }));
    return 'recorded';
  }

  private remove(factorId: string): void {
    this.factors.delete(factorId);
    for (const [id, challenge] of this.challenges) if (challenge.factorId === factorId) this.challenges.delete(id);
  }
}
