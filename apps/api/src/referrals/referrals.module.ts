import { Module } from '@nestjs/common';
import {
  ApplyReferral,
  GenerateReferralCode,
} from '@kiln/domain';
import { useCase } from '../common/use-case.provider.js';
import { CLOCK, CREDIT_LEDGER, PROFILE_REPOSITORY, RANDOM_SOURCE, REFERRAL_CODES, UNIT_OF_WORK } from '../tokens.js';
import { ReferralsController } from './referrals.controller.js';

@Module({
  controllers: [ReferralsController],
  providers: [
    useCase(GenerateReferralCode, [REFERRAL_CODES, RANDOM_SOURCE]),
    useCase(ApplyReferral, [PROFILE_REPOSITORY, CREDIT_LEDGER, UNIT_OF_WORK, CLOCK]),
  ],
  exports: [GenerateReferralCode, ApplyReferral],
})
export class ReferralsModule {}
