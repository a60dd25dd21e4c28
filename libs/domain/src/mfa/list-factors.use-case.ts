import type { Factor } from './factor.entity.js';
import type { FactorStore } from './factor-store.port.js';

/** The caller's factors, oldest first (the user object's `factors`; GET /user and every session). */
export class ListFactors {
  constructor(private readonly factors: FactorStore) {}

  async execute(input: { readonly userId: string }): Promise<readonly Factor[]> {
    const factors = await this.factors.listForUser(input.userId);
    return [...factors].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id));
  }
}
