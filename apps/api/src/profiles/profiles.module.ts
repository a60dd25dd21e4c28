import { Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import {
  ApplyReferral,
  type Clock,
  EnsureProfileOnSignIn,
  GenerateReferralCode,
  GrantMonthlyAllowance,
  type ProfileRepository, UpdateProfileDetails
} from '@kiln/domain';
import { EnsureProfileInterceptor } from '../common/ensure-profile.interceptor.js';
import { CreditsModule } from '../credits/credits.module.js';
import { ReferralsModule } from '../referrals/referrals.module.js';
import { CLOCK, PROFILE_REPOSITORY } from '../tokens.js';
import { ProfilesController } from './profiles.controller.js';

@Module({
  imports: [CreditsModule, ReferralsModule],
  controllers: [ProfilesController],
  providers: [
    {
      provide: EnsureProfileOnSignIn,
      useFactory: (
        profiles: ProfileRepository,
        codes: GenerateReferralCode,
        allowance: GrantMonthlyAllowance,
        applyReferral: ApplyReferral,
        clock: Clock,
      ) => new EnsureProfileOnSignIn(profiles, codes, allowance, applyReferral, clock),
      inject: [PROFILE_REPOSITORY, GenerateReferralCode, GrantMonthlyAllowance, ApplyReferral, CLOCK],
    },
    {
      provide: UpdateProfileDetails,
      useFactory: (profiles: ProfileRepository, clock: Clock) => new UpdateProfileDetails(profiles, clock),
      inject: [PROFILE_REPOSITORY, CLOCK],
    },
    // Every authenticated request: create the caller's profile first if it is missing.
    { provide: APP_INTERCEPTOR, useClass: EnsureProfileInterceptor },
  ],
  exports: [EnsureProfileOnSignIn],
})
export class ProfilesModule {}
