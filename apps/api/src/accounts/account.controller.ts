import { Controller, HttpCode, HttpStatus, Inject, Logger, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiProperty, ApiResponse, ApiTags } from '@nestjs/swagger';
import { type AccessClaims, DeleteAccount } from '@kiln/domain';
import { CurrentUser } from '../common/current-user.decorator.js';
import { ErrorResponse } from '../common/error-response.dto.js';
import { SkipProfileEnsure } from '../common/skip-profile-ensure.decorator.js';
import { ApiErrorException } from '../error-mapping.js';

export class SoftDeleteResponse {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'date-time' }) deleted_at!: string;
  @ApiProperty({ description: 'A paid subscription was set to end at its period end' }) subscription_cancelled!: boolean;
  @ApiProperty({ description: 'Projects hidden, their sites taken down and sandboxes removed' }) projects_hidden!: number;
}

/** Answer when a step of the deletion (payment provider, hosting, sandbox host, database) failed. */
const DELETION_UNAVAILABLE = {
  status: HttpStatus.SERVICE_UNAVAILABLE,
  body: { code: 'ACCOUNT.DELETION_UNAVAILABLE', detail: 'Your account could not be deleted right now. Nothing was lost; please try again in a moment.' },
};

/** Account endpoints under /api (bearer token checked by the global guard; /api error shapes). */
@ApiTags('auth')
@ApiBearerAuth()
@Controller('api/auth')
export class AccountController {
  private readonly logger = new Logger('Account');

  constructor(@Inject(DeleteAccount) private readonly deleteAccount: DeleteAccount) {}

  @Post('soft-delete')
  @HttpCode(200)
  @SkipProfileEnsure()
  @ApiOperation({
    summary: 'Deletes the caller’s account: the subscription ends at its period end, projects are hidden and stop being served, every session ends',
  })
  @ApiOkResponse({ type: SoftDeleteResponse })
  @ApiResponse({ status: 401, type: ErrorResponse, description: 'no_authorization, bad_jwt, session_not_found' })
  @ApiResponse({ status: 404, type: ErrorResponse, description: 'AUTH.USER_NOT_FOUND (already deleted, or an external auth user)' })
  @ApiResponse({ status: 503, type: ErrorResponse, description: 'ACCOUNT.DELETION_UNAVAILABLE (a step failed; still signed in, retry)' })
  async softDelete(@CurrentUser() claims: AccessClaims): Promise<SoftDeleteResponse> {
    const result = await this.run(claims.userId);
    if (!result.ok) {
      const status = result.error.code === 'AUTH.USER_NOT_FOUND' ? HttpStatus.NOT_FOUND : HttpStatus.SERVICE_UNAVAILABLE;
      throw new ApiErrorException({ status, body: { code: result.error.code, detail: result.error.message } });
    }
    const { deletedAt, subscriptionCancelled, projectsHidden } = result.value;
    return { id: claims.userId, deleted_at: deletedAt.toISOString(), subscription_cancelled: subscriptionCancelled, projects_hidden: projectsHidden };
  }

  private async run(userId: string) {
    try {
      return await this.deleteAccount.execute({ userId });
    } catch (error) {
      // Every step is idempotent and the sign-in ends last: the caller can simply retry.
      this.logger.error(`Deleting account ${userId} failed: ${error instanceof Error ? error.message : String(error)}`);
      throw new ApiErrorException(DELETION_UNAVAILABLE);
    }
  }
}
