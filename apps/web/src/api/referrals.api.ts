// GET /api/referrals: the caller's code, share link and what referring has earned.
import { inject, injectable } from 'inversify';
import { type HttpClient, TYPES } from '../app/ports';

export interface ReferralStatsDto {
  readonly referral_code: string;
  readonly share_link: string;
  readonly referred_count: number;
  readonly credits_earned: number;
}

export interface ReferralsApi {
  stats(): Promise<ReferralStatsDto>;
}

@injectable()
export class HttpReferralsApi implements ReferralsApi {
  constructor(@inject(TYPES.Http) private readonly http: HttpClient) {}

  stats(): Promise<ReferralStatsDto> {
    return this.http.get<ReferralStatsDto>('/api/referrals');
  }
}
