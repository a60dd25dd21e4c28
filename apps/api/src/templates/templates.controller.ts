import { Body, Controller, Get, HttpCode, Inject, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { type AccessClaims, type AppliedTemplate, ApplyProjectTemplate, type ApplyProjectTemplateError, type Result, TemplateCatalog } from '@kiln/domain';
import { CurrentUser } from '../common/current-user.decorator.js';
import { ErrorResponse } from '../common/error-response.dto.js';
import { unwrap } from '../error-mapping.js';
import { ProjectIdPipe } from '../projects/project-id.pipe.js';
import { hostFailure } from '../sandbox/sandbox-errors.js';
import { ApplyTemplateDto, ApplyTemplateResponse, TemplateResponse } from './dto/templates.dto.js';

/** The template catalog (issue #17 item 6) and the wizard's template step. */
@ApiTags('templates')
@ApiBearerAuth()
@ApiResponse({ status: 401, type: ErrorResponse })
@Controller('api')
export class TemplatesController {
  constructor(
    @Inject(TemplateCatalog) private readonly catalog: TemplateCatalog,
    @Inject(ApplyProjectTemplate) private readonly applyTemplate: ApplyProjectTemplate,
  ) {}

  @Get('templates')
  @ApiOperation({ summary: 'The starters a project can begin from: blank, landing, dashboard, store, blog' })
  @ApiOkResponse({ type: [TemplateResponse] })
  list(): TemplateResponse[] {
    return this.catalog.list().map(TemplateResponse.from);
  }

  @Post('sandbox/:id/apply-template')
  @HttpCode(200)
  @ApiOperation({ summary: "Write a template's files into the project's sandbox and save them as the version 'Start from the <name> template'" })
  @ApiOkResponse({ type: ApplyTemplateResponse })
  @ApiResponse({ status: 400, type: ErrorResponse, description: 'VALIDATION_FAILED' })
  @ApiResponse({ status: 404, type: ErrorResponse, description: 'PROJECTS.NOT_FOUND (also another user’s project); TEMPLATES.NOT_FOUND; SANDBOX.NOT_FOUND before ensure' })
  @ApiResponse({ status: 409, type: ErrorResponse, description: 'PROJECTS.BUSY: an AI turn is running or waiting in this project' })
  async apply(@CurrentUser() user: AccessClaims, @Param('id', ProjectIdPipe) id: string, @Body() body: ApplyTemplateDto): Promise<ApplyTemplateResponse> {
    let result: Result<AppliedTemplate, ApplyProjectTemplateError>;
    try {
      result = await this.applyTemplate.execute(user.userId, id, body.template_id);
    } catch (error) {
      throw hostFailure(error, id);
    }
    return ApplyTemplateResponse.from(unwrap(result));
  }
}
