import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { CURRENCIES, PROFILE_ROLE_VALUES, type Profile, type ProfileRole } from '@kiln/domain';
import { Transform } from 'class-transformer';
import { IsIn, IsISO8601, IsOptional, IsString, Matches, MaxLength, ValidateIf } from 'class-validator';
import { iso } from '../../common/wire.js';

const nullableDate = { type: String, format: 'date-time', nullable: true } as const;
const nullableText = { type: String, nullable: true } as const;

/** SPEC §3 Profile, every field, snake_case; dates as ISO text. */
export class ProfileResponse {
  @ApiProperty() id!: string;
  @ApiProperty({ description: 'From the sign-up full name, else empty' }) name!: string;
  @ApiProperty() email!: string;
  @ApiProperty({ ...nullableText, format: 'date', example: '1990-04-01' }) date_of_birth!: string | null;
  @ApiProperty(nullableText) organization!: string | null;
  @ApiProperty({ example: 'other' }) role!: string;
  @ApiProperty({ example: 'free' }) subscription_plan!: string;
  @ApiProperty(nullableText) subscription_id!: string | null;
  @ApiProperty(nullableText) subscription_status!: string | null;
  @ApiProperty({ ...nullableText, enum: ['monthly', 'annual'] }) billing_interval!: string | null;
  @ApiProperty(nullableText) customer_id!: string | null;
  @ApiProperty({ enum: CURRENCIES }) preferred_currency!: string;
  @ApiProperty({ description: 'Monthly allowance left (from the credit ledger)' }) credits!: number;
  @ApiProperty({ description: 'Referral credits left (from the credit ledger)' }) referral_credits!: number;
  @ApiProperty({ description: 'Add-on credits left (from the credit ledger)' }) extra_credits!: number;
  @ApiProperty({ example: 'K7QX2M' }) referral_code!: string;
  @ApiProperty({ ...nullableText, description: 'The id of the user whose code was applied' }) referred_by!: string | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
  @ApiProperty(nullableDate) last_sign_in_at!: string | null;
  @ApiProperty(nullableDate) billing_cycle_start_date!: string | null;
  @ApiProperty(nullableDate) billing_cycle_end_date!: string | null;
  @ApiProperty(nullableDate) first_purchased_date!: string | null;
  @ApiProperty(nullableDate) subscription_end_date!: string | null;
  @ApiProperty({ enum: [1, 2, 3] }) pro_multiplier!: number;

  static from(p: Profile): ProfileResponse {
    return {
      id: p.id,
      name: p.name,
      email: p.email,
      date_of_birth: p.dateOfBirth,
      organization: p.organization,
      role: p.role,
      subscription_plan: p.subscriptionPlan,
      subscription_id: p.subscriptionId,
      subscription_status: p.subscriptionStatus,
      billing_interval: p.billingInterval,
      customer_id: p.customerId,
      preferred_currency: p.preferredCurrency,
      credits: p.credits,
      referral_credits: p.referralCredits,
      extra_credits: p.extraCredits,
      referral_code: p.referralCode,
      referred_by: p.referredBy,
      created_at: iso(p.createdAt),
      updated_at: iso(p.updatedAt),
      last_sign_in_at: iso(p.lastSignInAt),
      billing_cycle_start_date: iso(p.billingCycleStartDate),
      billing_cycle_end_date: iso(p.billingCycleEndDate),
      first_purchased_date: iso(p.firstPurchasedDate),
      subscription_end_date: iso(p.subscriptionEndDate),
      pro_multiplier: p.proMultiplier,
    };
  }
}

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

/** The fields a user may change on their own profile; anything else is refused. */
export class UpdateProfileDto {
  @ApiPropertyOptional({ maxLength: 200 })
  @ValidateIf((o: UpdateProfileDto) => o.name !== undefined)
  @Transform(trim)
  @IsString()
  @MaxLength(200)
  name?: string;

  @ApiPropertyOptional({ type: String, nullable: true, format: 'date', example: '1990-04-01', description: 'null clears it' })
  @IsOptional()
  @IsString()
  @Matches(/^\d{4}-\d{2}-\d{2}$/, { message: 'must be a date written YYYY-MM-DD' })
  @IsISO8601({ strict: true }, { message: 'must be a real calendar date' })
  date_of_birth?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 200, description: 'null clears it' })
  @IsOptional()
  @Transform(trim)
  @IsString()
  @MaxLength(200)
  organization?: string | null;

  @ApiPropertyOptional({ enum: PROFILE_ROLE_VALUES, example: 'other', description: 'One of the roles sign-up and Settings offer' })
  @ValidateIf((o: UpdateProfileDto) => o.role !== undefined)
  @Transform(trim)
  @IsIn([...PROFILE_ROLE_VALUES], { message: `must be one of ${PROFILE_ROLE_VALUES.join(', ')}` })
  role?: ProfileRole;

  @ApiPropertyOptional({ enum: CURRENCIES, description: 'USD or INR (any case)' })
  @ValidateIf((o: UpdateProfileDto) => o.preferred_currency !== undefined)
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim().toUpperCase() : value))
  @IsIn([...CURRENCIES], { message: `must be one of ${CURRENCIES.join(', ')}` })
  preferred_currency?: string;
}

export class EnsureProfileDto {
  @ApiPropertyOptional({ type: String, nullable: true, example: 'K7QX2M', description: 'The code kept from a ?ref= link, if any' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  referral_code?: string | null;
}

export class ReferralOutcome {
  @ApiProperty({ description: "true: show 'Welcome Bonus!'" }) applied!: boolean;
  @ApiPropertyOptional({ example: 25 }) bonus?: number;
  @ApiPropertyOptional({ example: 'REFERRALS.UNKNOWN_CODE', description: 'Why it was refused' }) code?: string;
  @ApiPropertyOptional({ example: 'No account has this referral code' }) detail?: string;
}

export class EnsureProfileResponse {
  @ApiProperty({ type: ProfileResponse }) profile!: ProfileResponse;
  @ApiProperty({ description: 'true when this call created the profile' }) created!: boolean;
  @ApiProperty({ type: ReferralOutcome, nullable: true, description: 'null when no referral_code was sent; the browser clears its copy either way' })
  referral!: ReferralOutcome | null;
}
