import { Controller, Get, Inject } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { type AccessClaims, type PlanCatalog, type ProfileRepository, profileNotFound } from '@kiln/domain';
import { CurrentUser } from '../common/current-user.decorator.js';
import { ErrorResponse } from '../common/error-response.dto.js';
import { Public } from '../common/public.decorator.js';
import { toException } from '../error-mapping.js';
import { PLAN_CATALOG, PROFILE_REPOSITORY } from '../tokens.js';
import { CurrentPlanResponse, PlanResponse } from './dto/plan.dto.js';

@ApiTags('plans')
@Controller('api/plans')
export class PlansController {
  constructor(
    @Inject(PLAN_CATALOG) private readonly plans: PlanCatalog,
    @Inject(PROFILE_REPOSITORY) private readonly profiles: ProfileRepository,
  ) {}

  /** The plans on offer (public: the pricing page is). */
  @Get()
  @ApiOperation({ summary: 'The plans on offer (public)' })
  @Public()
  @ApiOkResponse({ type: [PlanResponse] })
  list(): PlanResponse[] {
    return this.plans.list().map(PlanResponse.from);
  }

  /** The caller's plan (an unknown stored plan id resolves to free, SPEC §4). */
  @Get('current')
  @ApiOperation({ summary: "The caller's current plan" })
  @ApiBearerAuth()
  @ApiOkResponse({ type: CurrentPlanResponse })
  @ApiResponse({ status: 401, type: ErrorResponse })
  async current(@CurrentUser() user: AccessClaims): Promise<CurrentPlanResponse> {
    const profile = await this.profiles.findById(user.userId);
    if (!profile) throw toException(profileNotFound(user.userId));
    return CurrentPlanResponse.from(this.plans.resolve(profile.subscriptionPlan), profile.preferredCurrency);
  }
}
