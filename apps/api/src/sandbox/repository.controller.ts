import { Body, Controller, HttpCode, Inject, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiProperty, ApiResponse, ApiTags } from '@nestjs/swagger';
import { type AccessClaims, MAX_GIT_URL_LENGTH, type RepositorySetUp, SetupRepository, setupRepositoryMessage } from '@kiln/domain';
import { IsDefined, IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { CurrentUser } from '../common/current-user.decorator.js';
import { ErrorResponse } from '../common/error-response.dto.js';
import { toException, unwrap } from '../error-mapping.js';
import { ProjectIdPipe } from '../projects/project-id.pipe.js';
import { GitResultResponse } from './dto/sandbox.dto.js';
import { hostFailure } from './sandbox-errors.js';

/** No RepositoryImporter on this server (SandboxModule's default). */
export const REPOSITORY_UNAVAILABLE = 'REPOSITORY.UNAVAILABLE';

export class SetupRepositoryDto {
  @ApiProperty({ example: 'https://github.com/owner/repo', maxLength: MAX_GIT_URL_LENGTH, description: 'A public https:// repository (no credentials)' })
  @IsDefined({ message: 'is required' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(MAX_GIT_URL_LENGTH)
  gitUrl!: string;
}

export class SetupRepositoryResponse {
  @ApiProperty() success!: boolean;
  @ApiProperty({ description: 'Files imported' }) files!: number;
  @ApiProperty() bytes!: number;
  @ApiProperty({ type: GitResultResponse, description: "The version 'Import <url>'" }) version!: GitResultResponse;

  static from(done: RepositorySetUp): SetupRepositoryResponse {
    return { success: true, files: done.files, bytes: done.bytes, version: GitResultResponse.from(done.version) };
  }
}

/**
 * SPEC §7 "The sandboxed app exposes POST /__internal/api/setup/repository with gitUrl" (issue #17
 * item 10). Kiln's sandboxed app is project code, so the route is served by Kiln's API under the
 * project's sandbox, with the owner's bearer token (docs/decisions.md "Git import").
 */
@ApiTags('sandbox')
@ApiBearerAuth()
@ApiResponse({ status: 401, type: ErrorResponse })
@Controller('api/sandbox/:id')
export class RepositoryController {
  constructor(@Inject(SetupRepository) private readonly setupRepository: SetupRepository) {}

  @Post('__internal/api/setup/repository')
  @HttpCode(200)
  @ApiOperation({ summary: "Import a public git repository into the project (shallow, size-capped, cloned inside the sandbox), saved as the version 'Import <url>'" })
  @ApiOkResponse({ type: SetupRepositoryResponse })
  @ApiResponse({ status: 400, type: ErrorResponse, description: "VALIDATION_FAILED; REPOSITORY.URL_REFUSED ('Failed to setup repository: {error}')" })
  @ApiResponse({ status: 404, type: ErrorResponse, description: 'PROJECTS.NOT_FOUND; SANDBOX.NOT_FOUND before ensure' })
  @ApiResponse({ status: 409, type: ErrorResponse, description: 'PROJECTS.BUSY: an AI turn is running or waiting in this project' })
  @ApiResponse({ status: 422, type: ErrorResponse, description: "REPOSITORY.IMPORT_FAILED ('Failed to setup repository: {error}')" })
  @ApiResponse({ status: 503, type: ErrorResponse, description: 'REPOSITORY.UNAVAILABLE: this server cannot import repositories' })
  async setup(@CurrentUser() user: AccessClaims, @Param('id', ProjectIdPipe) id: string, @Body() body: SetupRepositoryDto): Promise<SetupRepositoryResponse> {
    try {
      return SetupRepositoryResponse.from(unwrap(await this.setupRepository.execute(user.userId, id, body.gitUrl)));
    } catch (error) {
      if ((error as { code?: unknown } | null)?.code === REPOSITORY_UNAVAILABLE) {
        throw toException({ code: REPOSITORY_UNAVAILABLE, message: setupRepositoryMessage('importing repositories is not available on this server') });
      }
      throw hostFailure(error, id);
    }
  }
}
