import { Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import {
  ApplyReferral,
  EnsureProfileOnSignIn,
  GenerateReferralCode,
  GrantMonthlyAllowance, UpdateProfileDetails
} from '@kiln/domain';
import { useCase } from '../common/use-case.provider.js';
import { EnsureProfileInterceptor } from '../common/ensure-profile.interceptor.js';
import { CreditsModule } from '../credits/credits.module.js';
import { ReferralsModule } from '../referrals/referrals.module.js';
import { ACCOUNT_ACTIVITY, CLOCK, PROFILE_REPOSITORY } from '../tokens.js';
import { ProfilesController } from './profiles.controller.js';

@Module({
  imports: [CreditsModule, ReferralsModule],
  controllers: [ProfilesController],
  providers: [
    useCase(EnsureProfileOnSignIn, [PROFILE_REPOSITORY, GenerateReferralCode, GrantMonthlyAllowance, ApplyReferral, CLOCK, ACCOUNT_ACTIVITY]),
    useCase(UpdateProfileDetails, [PROFILE_REPOSITORY, CLOCK]),
    // Every authenticated request: create the caller's profile first if it is missing.
    { provide: APP_INTERCEPTOR, useClass: EnsureProfileInterceptor },
  ],
  exports: [EnsureProfileOnSignIn],
})
export class ProfilesModule {}
