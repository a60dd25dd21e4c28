import { Controller, HttpCode, HttpStatus, Inject, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiProperty, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { AccessClaims, AuthUseCases } from '@kiln/domain';
import { CurrentUser } from '../common/current-user.decorator.js';
import { ErrorResponse } from '../common/error-response.dto.js';
import { SkipProfileEnsure } from '../common/skip-profile-ensure.decorator.js';
import { ApiErrorException } from '../error-mapping.js';
import { AUTH_USE_CASES } from './auth.tokens.js';

export class SoftDeleteResponse {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'date-time' }) deleted_at!: string;
}

/** Account endpoints under /api (bearer token checked by the global guard; /api error shapes). */
@ApiTags('auth')
@ApiBearerAuth()
@Controller('api/auth')
export class AccountController {
  constructor(@Inject(AUTH_USE_CASES) private readonly auth: AuthUseCases) {}

  @Post('soft-delete')
  @HttpCode(200)
  @SkipProfileEnsure()
  @ApiOperation({ summary: 'Soft-deletes the caller’s account: it can no longer sign in, and every session ends' })
  @ApiOkResponse({ type: SoftDeleteResponse })
  @ApiResponse({ status: 401, type: ErrorResponse, description: 'no_authorization, bad_jwt, session_not_found' })
  @ApiResponse({ status: 404, type: ErrorResponse, description: 'AUTH.USER_NOT_FOUND (already deleted, or an external auth user)' })
  async softDelete(@CurrentUser() claims: AccessClaims): Promise<SoftDeleteResponse> {
    const result = await this.auth.softDeleteAccount.execute({ userId: claims.userId });
    if (!result.ok) {
      throw new ApiErrorException({ status: HttpStatus.NOT_FOUND, body: { code: result.error.code, detail: result.error.message } });
    }
    return { id: claims.userId, deleted_at: result.value.deletedAt.toISOString() };
  }
}
