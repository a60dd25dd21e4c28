import { Controller, Get, Inject } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { type AccessClaims, GetUsageStats } from '@kiln/domain';
import { CurrentUser } from '../common/current-user.decorator.js';
import { ErrorResponse } from '../common/error-response.dto.js';
import { unwrap } from '../error-mapping.js';
import { UsageStatsResponse } from './dto/usage.dto.js';

@ApiTags('credits')
@ApiBearerAuth()
@ApiResponse({ status: 401, type: ErrorResponse })
@Controller('api/usage')
export class UsageController {
  constructor(@Inject(GetUsageStats) private readonly getUsageStats: GetUsageStats) {}

  /** The usage-limits panel's numbers (rolls the allowance cycle forward first if it ended). */
  @Get()
  @ApiOperation({ summary: 'Usage stats of the caller (SPEC §3)' })
  @ApiOkResponse({ type: UsageStatsResponse })
  async usage(@CurrentUser() user: AccessClaims): Promise<UsageStatsResponse> {
    return UsageStatsResponse.from(unwrap(await this.getUsageStats.execute({ userId: user.userId })));
  }
}
