import { ApiProperty } from '@nestjs/swagger';
import { type Currency, type Limit, type Plan, billingIntervalLabel } from '@kiln/domain';
import { majorUnits } from '../../common/wire.js';

const countOrUnlimited = { oneOf: [{ type: 'integer' }, { type: 'string', enum: ['unlimited'] }] };
const wireLimit = (limit: Limit): number | 'unlimited' => (limit.kind === 'unlimited' ? 'unlimited' : limit.value);
const MONTHS_PER_YEAR = 12;

export class PlanFeaturesView {
  @ApiProperty({ ...countOrUnlimited, example: 25 }) prompts_per_month!: number | 'unlimited';
  @ApiProperty({ ...countOrUnlimited, example: 'unlimited' }) private_projects!: number | 'unlimited';
  @ApiProperty({ ...countOrUnlimited, example: 'unlimited' }) published_projects!: number | 'unlimited';
  @ApiProperty({ ...countOrUnlimited, example: 0 }) public_projects!: number | 'unlimited';
  @ApiProperty({ ...countOrUnlimited, example: 0 }) team_members!: number | 'unlimited';
  @ApiProperty({ enum: ['basic', 'priority_email', 'dedicated'] }) support_level!: string;
}

/** SPEC §3 Plan. Prices in major units (25, 2499), computed from the domain's integer minor units. */
export class PlanResponse {
  @ApiProperty({ example: 'pro_monthly' }) id!: string;
  @ApiProperty({ example: 'Pro Monthly' }) name!: string;
  @ApiProperty({ type: String, nullable: true, description: 'Payment provider product id; null until billing is configured' })
  plan_id!: string | null;
  @ApiProperty() description!: string;
  @ApiProperty({ example: 25, description: 'USD per billing interval' }) price!: number;
  @ApiProperty({ example: 2499, description: 'INR per billing interval' }) price_inr!: number;
  @ApiProperty({ example: 300, description: 'USD per year (the annual plan’s price, or 12 × the monthly price)' }) annual_price!: number;
  @ApiProperty({ example: 29988, description: 'INR per year' }) annual_price_inr!: number;
  @ApiProperty({ example: 'USD' }) currency!: 'USD';
  @ApiProperty({ type: String, nullable: true, enum: ['monthly', 'annual'], description: 'null: free, nothing billed' })
  billing_interval!: string | null;
  @ApiProperty({ enum: ['month', 'year'], description: 'SPEC §9 billing interval label' }) interval_label!: string;
  @ApiProperty({ type: PlanFeaturesView }) features!: PlanFeaturesView;

  static from(plan: Plan): PlanResponse {
    const perYear = plan.interval === 'monthly' ? MONTHS_PER_YEAR : 1;
    const f = plan.features;
    return {
      id: plan.id,
      name: plan.name,
      plan_id: null,
      description: plan.description,
      price: majorUnits(plan.prices.USD),
      price_inr: majorUnits(plan.prices.INR),
      annual_price: majorUnits(plan.prices.USD * perYear),
      annual_price_inr: majorUnits(plan.prices.INR * perYear),
      currency: 'USD',
      billing_interval: plan.interval,
      interval_label: billingIntervalLabel(plan.interval),
      features: {
        prompts_per_month: wireLimit(f.promptsPerMonth),
        private_projects: wireLimit(f.privateProjects),
        published_projects: wireLimit(f.publishedProjects),
        public_projects: wireLimit(f.publicProjects),
        team_members: wireLimit(f.teamMembers),
        support_level: f.supportLevel,
      },
    };
  }
}

/** SPEC §3 "Current plan view": name, price, currency (the profile's preferred currency). */
export class CurrentPlanResponse {
  @ApiProperty({ example: 'free' }) id!: string;
  @ApiProperty({ example: 'Free' }) name!: string;
  @ApiProperty({ example: 0, description: 'Per billing interval, in major units of `currency`' }) price!: number;
  @ApiProperty({ enum: ['USD', 'INR'] }) currency!: Currency;
  @ApiProperty({ type: String, nullable: true, enum: ['monthly', 'annual'] }) billing_interval!: string | null;
  @ApiProperty({ enum: ['month', 'year'] }) interval_label!: string;

  static from(plan: Plan, currency: Currency): CurrentPlanResponse {
    return {
      id: plan.id,
      name: plan.name,
      price: majorUnits(plan.prices[currency]),
      currency,
      billing_interval: plan.interval,
      interval_label: billingIntervalLabel(plan.interval),
    };
  }
}
