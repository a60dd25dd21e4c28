import type { RandomSource } from '../shared/random.port.js';
import { type Result, err, ok } from '../shared/result.js';
import { MAX_REFERRAL_CODE_ATTEMPTS, type ReferralCode, randomReferralCode } from './referral-code.js';
import type { ReferralCodes } from './referral-codes.port.js';
import { type CodeGenerationFailed, codeGenerationFailed } from './referral.errors.js';

/** Draws codes until one is free, at most 10 times (SPEC §5). */
export class GenerateReferralCode {
  constructor(
    private readonly codes: ReferralCodes,
    private readonly random: RandomSource,
  ) {}

  async execute(): Promise<Result<ReferralCode, CodeGenerationFailed>> {
    for (let attempt = 1; attempt <= MAX_REFERRAL_CODE_ATTEMPTS; attempt += 1) {
      const code = randomReferralCode(this.random);
      if (!(await this.codes.isTaken(code))) return ok(code);
    }
    return err(codeGenerationFailed(MAX_REFERRAL_CODE_ATTEMPTS));
  }
}
