// GET /api/plans (public) and GET /api/plans/current: SPEC §3 Plan, prices in major units.
import type { Currency } from '@kiln/domain';
import { inject, injectable } from 'inversify';
import { type HttpClient, TYPES } from '../app/ports';

export type WireLimit = number | 'unlimited';

export interface PlanFeaturesDto {
  readonly prompts_per_month: WireLimit;
  readonly private_projects: WireLimit;
  readonly published_projects: WireLimit;
  readonly public_projects: WireLimit;
  readonly team_members: WireLimit;
  readonly support_level: string;
}

export interface PlanDto {
  readonly id: string;
  readonly name: string;
  /** Payment provider product id; null until billing is configured. */
  readonly plan_id: string | null;
  readonly description: string;
  /** USD per billing interval, major units. */
  readonly price: number;
  /** INR per billing interval, major units. */
  readonly price_inr: number;
  readonly annual_price: number;
  readonly annual_price_inr: number;
  readonly currency: string;
  /** null: the free plan, nothing billed. */
  readonly billing_interval: 'monthly' | 'annual' | null;
  readonly interval_label?: string;
  readonly features: PlanFeaturesDto;
}

/** SPEC §3 "Current plan view". */
export interface CurrentPlanDto {
  readonly id: string;
  readonly name: string;
  readonly price: number;
  readonly currency: Currency;
  readonly billing_interval: 'monthly' | 'annual' | null;
  readonly interval_label?: string;
}

export interface PlansApi {
  list(): Promise<readonly PlanDto[]>;
  current(): Promise<CurrentPlanDto>;
}

@injectable()
export class HttpPlansApi implements PlansApi {
  constructor(@inject(TYPES.Http) private readonly http: HttpClient) {}

  list(): Promise<readonly PlanDto[]> {
    return this.http.get<readonly PlanDto[]>('/api/plans', { anonymous: true });
  }

  current(): Promise<CurrentPlanDto> {
    return this.http.get<CurrentPlanDto>('/api/plans/current');
  }
}
