import { ApiProperty } from '@nestjs/swagger';
import { IsDefined, IsString, MaxLength, MinLength } from 'class-validator';

export class ApplyReferralDto {
  @ApiProperty({ example: 'K7QX2M', description: 'A referral code as typed (case and surrounding spaces do not matter)' })
  @IsDefined({ message: 'is required' })
  @IsString()
  @MinLength(1)
  @MaxLength(64)
  code!: string;
}

export class AppliedReferralResponse {
  @ApiProperty({ example: true })
  applied!: true;

  @ApiProperty({ example: 25, description: 'Credits each side received' })
  bonus!: number;

  @ApiProperty({ description: 'The caller’s referral credits afterwards' })
  referral_credits!: number;
}

export class ReferralStatsResponse {
  @ApiProperty({ example: 'K7QX2M' })
  referral_code!: string;

  @ApiProperty({ example: 'http://localhost:5173/?ref=K7QX2M' })
  share_link!: string;

  @ApiProperty({ description: 'How many people signed up with this code' })
  referred_count!: number;

  @ApiProperty({ description: 'Credits earned by referring others (25 per friend)' })
  credits_earned!: number;
}
