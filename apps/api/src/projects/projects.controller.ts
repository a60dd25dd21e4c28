import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Patch, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { type AccessClaims, CreateProject, DeleteProject, ListProjects, OwnedProjects, PublishProject, RenameProject } from '@kiln/domain';
import { CurrentUser } from '../common/current-user.decorator.js';
import { ErrorResponse } from '../common/error-response.dto.js';
import { unwrap } from '../error-mapping.js';
import { ProjectIdPipe } from './project-id.pipe.js';
import { CreateProjectDto, ProjectResponse, PublishCheckResponse, UpdateProjectDto } from './dto/project.dto.js';

@ApiTags('projects')
@ApiBearerAuth()
@ApiResponse({ status: 401, type: ErrorResponse })
@Controller('api/projects')
export class ProjectsController {
  constructor(
    @Inject(CreateProject) private readonly createProject: CreateProject,
    @Inject(ListProjects) private readonly listProjects: ListProjects,
    @Inject(OwnedProjects) private readonly owned: OwnedProjects,
    @Inject(RenameProject) private readonly rename: RenameProject,
    @Inject(DeleteProject) private readonly deleteProject: DeleteProject,
    @Inject(PublishProject) private readonly publish: PublishProject,
  ) {}

  @Post()
  @ApiOperation({ summary: 'Create a private project' })
  @ApiCreatedResponse({ type: ProjectResponse })
  @ApiResponse({ status: 400, type: ErrorResponse, description: 'VALIDATION_FAILED' })
  @ApiResponse({ status: 402, type: ErrorResponse, description: "PROJECTS.LIMIT_REACHED, limit_type 'project'" })
  async create(@CurrentUser() user: AccessClaims, @Body() body: CreateProjectDto): Promise<ProjectResponse> {
    return ProjectResponse.from(unwrap(await this.createProject.execute({ creatorId: user.userId, name: body.name })));
  }

  /** The caller's projects (not deleted), newest first. */
  @Get()
  @ApiOperation({ summary: "The caller's projects" })
  @ApiOkResponse({ type: [ProjectResponse] })
  async list(@CurrentUser() user: AccessClaims): Promise<ProjectResponse[]> {
    return (await this.listProjects.execute(user.userId)).map(ProjectResponse.from);
  }

  @Get(':id')
  @ApiOperation({ summary: "One of the caller's projects" })
  @ApiOkResponse({ type: ProjectResponse })
  @ApiResponse({ status: 404, type: ErrorResponse, description: 'PROJECTS.NOT_FOUND (also for another user’s project)' })
  async get(@CurrentUser() user: AccessClaims, @Param('id', ProjectIdPipe) id: string): Promise<ProjectResponse> {
    return ProjectResponse.from(unwrap(await this.owned.find(user.userId, id)));
  }

  @Patch(':id')
  @ApiOperation({ summary: 'Rename, publish (domain) or unpublish (domain: null) a project' })
  @ApiOkResponse({ type: ProjectResponse })
  @ApiResponse({ status: 400, type: ErrorResponse, description: 'VALIDATION_FAILED' })
  @ApiResponse({ status: 402, type: ErrorResponse, description: "PUBLISHING.NOT_INCLUDED / PUBLISHING.LIMIT_REACHED, limit_type 'published'" })
  @ApiResponse({ status: 404, type: ErrorResponse, description: 'PROJECTS.NOT_FOUND' })
  async update(@CurrentUser() user: AccessClaims, @Param('id', ProjectIdPipe) id: string, @Body() body: UpdateProjectDto): Promise<ProjectResponse> {
    // A domain (or null) publishes, moves or unpublishes, within the plan; a name alone renames.
    const updated =
      body.domain === undefined
        ? await this.renamed(user.userId, id, body.name)
        : await this.publish.execute(user.userId, id, { domain: body.domain, name: body.name });
    return ProjectResponse.from(unwrap(updated));
  }

  /** Soft delete: status becomes deleted; the project no longer counts against the plan. */
  @Delete(':id')
  @ApiOperation({ summary: 'Delete a project (soft)' })
  @HttpCode(204)
  @ApiNoContentResponse()
  @ApiResponse({ status: 404, type: ErrorResponse, description: 'PROJECTS.NOT_FOUND' })
  async remove(@CurrentUser() user: AccessClaims, @Param('id', ProjectIdPipe) id: string): Promise<void> {
    unwrap(await this.deleteProject.execute(user.userId, id));
  }

  /** May this project be published (or change its custom domain)? */
  @Get(':id/publish-check')
  @ApiOperation({ summary: 'May this project be published?' })
  @ApiOkResponse({ type: PublishCheckResponse })
  @ApiResponse({ status: 402, type: ErrorResponse, description: "PUBLISHING.NOT_INCLUDED / PUBLISHING.LIMIT_REACHED, limit_type 'published'" })
  @ApiResponse({ status: 404, type: ErrorResponse, description: 'PROJECTS.NOT_FOUND' })
  async publishCheck(@CurrentUser() user: AccessClaims, @Param('id', ProjectIdPipe) id: string): Promise<PublishCheckResponse> {
    const allowed = unwrap(await this.publish.check(user.userId, id));
    return { allowed: true, limit: allowed.limit };
  }

  /** A body without a name and a domain changes nothing: the project as it is. */
  private renamed(userId: string, id: string, name: string | undefined) {
    return name === undefined ? this.owned.find(userId, id) : this.rename.execute(userId, id, name);
  }
}
