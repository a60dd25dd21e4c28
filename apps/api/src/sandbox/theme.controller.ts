import { Body, Controller, HttpCode, Inject, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { type AccessClaims, type AppliedTheme, ApplyProjectTheme, type ApplyProjectThemeError, type Result, THEME_STYLESHEET_PATH } from '@kiln/domain';
import { CurrentUser } from '../common/current-user.decorator.js';
import { ErrorResponse } from '../common/error-response.dto.js';
import { unwrap } from '../error-mapping.js';
import { ProjectIdPipe } from '../projects/project-id.pipe.js';
import { ApplyThemeDto, ApplyThemeResponse } from './dto/theme.dto.js';
import { hostFailure } from './sandbox-errors.js';

/**
 * The theme builder's Apply (docs/sandbox-api.md "apply-theme"): the theme is merged into the
 * project's src/index.css on the server, under the project's turn lock (ApplyProjectTheme).
 */
@ApiTags('sandbox')
@ApiBearerAuth()
@ApiResponse({ status: 401, type: ErrorResponse })
@Controller('api/sandbox/:id')
export class ThemeController {
  constructor(@Inject(ApplyProjectTheme) private readonly applyProjectTheme: ApplyProjectTheme) {}

  @Post('apply-theme')
  @HttpCode(200)
  @ApiOperation({ summary: "Merge a theme into src/index.css and save it as the version 'Apply theme <name>'" })
  @ApiOkResponse({ type: ApplyThemeResponse })
  @ApiResponse({ status: 400, type: ErrorResponse, description: 'VALIDATION_FAILED' })
  @ApiResponse({ status: 404, type: ErrorResponse, description: 'PROJECTS.NOT_FOUND (also another user’s project); SANDBOX.NOT_FOUND before ensure; SANDBOX.FILE_NOT_FOUND without src/index.css' })
  @ApiResponse({ status: 409, type: ErrorResponse, description: 'PROJECTS.BUSY: an AI turn is running or waiting in this project' })
  async applyTheme(@CurrentUser() user: AccessClaims, @Param('id', ProjectIdPipe) id: string, @Body() body: ApplyThemeDto): Promise<ApplyThemeResponse> {
    let result: Result<AppliedTheme, ApplyProjectThemeError>;
    try {
      result = await this.applyProjectTheme.execute(user.userId, id, body);
    } catch (error) {
      throw hostFailure(error, id, THEME_STYLESHEET_PATH);
    }
    return ApplyThemeResponse.from(unwrap(result));
  }
}
