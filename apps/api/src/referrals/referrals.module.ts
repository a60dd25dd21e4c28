import { Module } from '@nestjs/common';
import {
  ApplyReferral,
  type Clock,
  type CreditLedger,
  GenerateReferralCode,
  type ProfileRepository,
  type RandomSource,
  type ReferralCodes,
  type UnitOfWork,
} from '@kiln/domain';
import { CLOCK, CREDIT_LEDGER, PROFILE_REPOSITORY, RANDOM_SOURCE, REFERRAL_CODES, UNIT_OF_WORK } from '../tokens.js';
import { ReferralsController } from './referrals.controller.js';

@Module({
  controllers: [ReferralsController],
  providers: [
    {
      provide: GenerateReferralCode,
      useFactory: (codes: ReferralCodes, random: RandomSource) => new GenerateReferralCode(codes, random),
      inject: [REFERRAL_CODES, RANDOM_SOURCE],
    },
    {
      provide: ApplyReferral,
      useFactory: (profiles: ProfileRepository, ledger: CreditLedger, uow: UnitOfWork, clock: Clock) =>
        new ApplyReferral(profiles, ledger, uow, clock),
      inject: [PROFILE_REPOSITORY, CREDIT_LEDGER, UNIT_OF_WORK, CLOCK],
    },
  ],
  exports: [GenerateReferralCode, ApplyReferral],
})
export class ReferralsModule {}
