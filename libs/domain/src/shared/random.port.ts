/** Where randomness comes from (a CSPRNG in production, a seeded or scripted source in tests). */
export interface RandomSource {
  /** A uniformly distributed integer in [0, maxExclusive). */
  nextInt(maxExclusive: number): number;
}
