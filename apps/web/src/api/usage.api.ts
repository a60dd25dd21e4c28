// GET /api/usage: SPEC §3 usage stats, snake_cased, with the derived values computed server-side.
import { inject, injectable } from 'inversify';
import { type HttpClient, TYPES } from '../app/ports';
import type { WireLimit } from './plans.api';

export interface UsageStatsDto {
  readonly prompts_total: WireLimit;
  readonly prompts_used: number;
  readonly prompts_percent_used?: number;
  readonly private_projects_count: number;
  /** -1 means unlimited. */
  readonly private_projects_limit: number;
  readonly is_unlimited_private_projects: boolean;
  readonly private_projects_percent_used?: number;
  readonly published_projects_count: number;
  readonly published_projects_limit: WireLimit;
  readonly is_unlimited_published_projects: boolean;
  readonly published_projects_percent_used?: number;
  readonly is_unlimited_prompts: boolean;
  /** credits + referral_credits + extra_credits (SPEC §9). */
  readonly credits_remaining: number;
  readonly credits_from_plan: number;
  readonly credits_from_referrals: number;
  readonly credits_from_add_ons: number;
  readonly prompts_from_plan: WireLimit;
  readonly prompts_from_referrals: number;
  readonly is_limitless_plan: boolean;
  readonly cycle_start: string | null;
  readonly cycle_end: string | null;
}

export interface UsageApi {
  stats(): Promise<UsageStatsDto>;
}

@injectable()
export class HttpUsageApi implements UsageApi {
  constructor(@inject(TYPES.Http) private readonly http: HttpClient) {}

  stats(): Promise<UsageStatsDto> {
    return this.http.get<UsageStatsDto>('/api/usage');
  }
}
