import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Patch, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { type AccessClaims, CheckProjectPublish, CreateProject, DeleteProject, ListProjects, OwnedProjects, RenameProject } from '@kiln/domain';
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
    @Inject(CheckProjectPublish) private readonly checkPublish: CheckProjectPublish,
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
  @ApiOperation({ summary: 'Rename a project (publishing is /api/fly/create-project and /api/fly/destroy-app, docs/hosting.md)' })
  @ApiOkResponse({ type: ProjectResponse })
  @ApiResponse({ status: 400, type: ErrorResponse, description: 'VALIDATION_FAILED (also for a `domain` field: publishing has its own routes)' })
  @ApiResponse({ status: 404, type: ErrorResponse, description: 'PROJECTS.NOT_FOUND' })
  async update(@CurrentUser() user: AccessClaims, @Param('id', ProjectIdPipe) id: string, @Body() body: UpdateProjectDto): Promise<ProjectResponse> {
    // A body without a name changes nothing: the project as it is.
    const updated = body.name === undefined ? await this.owned.find(user.userId, id) : await this.rename.execute(user.userId, id, body.name);
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

  /** May this project be published (or get a custom domain)? */
  @Get(':id/publish-check')
  @ApiOperation({ summary: 'May this project be published?' })
  @ApiOkResponse({ type: PublishCheckResponse })
  @ApiResponse({ status: 402, type: ErrorResponse, description: "PUBLISHING.NOT_INCLUDED / PUBLISHING.LIMIT_REACHED, limit_type 'published'" })
  @ApiResponse({ status: 404, type: ErrorResponse, description: 'PROJECTS.NOT_FOUND' })
  async publishCheck(@CurrentUser() user: AccessClaims, @Param('id', ProjectIdPipe) id: string): Promise<PublishCheckResponse> {
    const allowed = unwrap(await this.checkPublish.execute({ userId: user.userId, projectId: id }));
    return { allowed: true, limit: allowed.limit };
  }
}
