import type { ProfileRepository } from '../profiles/profile-repository.port.js';
import type { ReferralCode } from '../referrals/referral-code.js';
import type { ReferralCodes } from '../referrals/referral-codes.port.js';

/** Checks codes against the profiles held, plus any codes a test marks as taken. */
export class InMemoryReferralCodes implements ReferralCodes {
  private readonly reserved = new Set<string>();
  constructor(private readonly profiles: ProfileRepository) {}

  async isTaken(code: ReferralCode): Promise<boolean> {
    return this.reserved.has(code) || (await this.profiles.findByReferralCode(code)) !== null;
  }

  /** Test helper: marks codes as taken. */
  reserve(...codes: string[]): void {
    for (const c of codes) this.reserved.add(c);
  }
}
