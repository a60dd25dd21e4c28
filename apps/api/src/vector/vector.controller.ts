import { Body, Controller, Get, HttpCode, Inject, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { type AccessClaims, DEFAULT_VECTOR_QUERY_LIMIT, type IndexReport, OwnedProjects, type VectorIndex } from '@kiln/domain';
import { CurrentUser } from '../common/current-user.decorator.js';
import { ErrorResponse } from '../common/error-response.dto.js';
import { unwrap } from '../error-mapping.js';
import { ProjectIdPipe } from '../projects/project-id.pipe.js';
import { checkedPath, hostFailure } from '../sandbox/sandbox-errors.js';
import { VECTOR_INDEX } from '../tokens.js';
import {
  CloneTemplateDto,
  CloneTemplateResponse,
  FullReindexDto,
  PartialReindexDto,
  ReindexResponse,
  VectorMatchResponse,
  VectorQueryDto,
} from './dto/vector.dto.js';
import { indexEntries } from './file-tree.js';
import { ProjectIndexer, templateKey } from './project-indexer.js';
import { templateNotFound } from './vector-errors.js';

const PROJECT_404 = 'PROJECTS.NOT_FOUND (also another user’s project)';
const READ_404 = `${PROJECT_404}; SANDBOX.NOT_FOUND when a file must be read from a sandbox not created yet`;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A template's name: what `templateKey` turns into an index key. */
const TEMPLATE_NAME = /^[a-z0-9][a-z0-9-]{0,63}$/;

/**
 * The vector index routes (SPEC §7 "Vector index", §9 query limit 10): reindex a project from a
 * file tree (texts given, or read from its sandbox), copy a template's index, and query. Only the
 * project's creator may use them; anyone else gets PROJECTS.NOT_FOUND. Paths are checked like the
 * sandbox's (400 SANDBOX.PATH_OUTSIDE).
 */
@ApiTags('vector')
@ApiBearerAuth()
@ApiResponse({ status: 401, type: ErrorResponse })
@Controller('api/vector')
export class VectorController {
  private readonly projectId = new ProjectIdPipe();

  constructor(
    @Inject(OwnedProjects) private readonly owned: OwnedProjects,
    @Inject(ProjectIndexer) private readonly indexer: ProjectIndexer,
    @Inject(VECTOR_INDEX) private readonly index: VectorIndex,
  ) {}

  @Post('full-reindex')
  @HttpCode(200)
  @ApiOperation({ summary: "Replace the project's index with these files" })
  @ApiOkResponse({ type: ReindexResponse })
  @ApiResponse({ status: 400, type: ErrorResponse, description: 'VALIDATION_FAILED, SANDBOX.PATH_OUTSIDE' })
  @ApiResponse({ status: 404, type: ErrorResponse, description: READ_404 })
  async fullReindex(@CurrentUser() user: AccessClaims, @Body() body: FullReindexDto): Promise<ReindexResponse> {
    const id = await this.own(user, body.project_id);
    const entries = this.checkedEntries(body.file_tree);
    return reply(await this.reading(id, () => this.indexer.fullReindex(id, entries)));
  }

  @Post('partial-reindex')
  @HttpCode(200)
  @ApiOperation({ summary: "Re-index the changed files (and drop removed ones) in the project's index" })
  @ApiOkResponse({ type: ReindexResponse })
  @ApiResponse({ status: 400, type: ErrorResponse, description: 'VALIDATION_FAILED, SANDBOX.PATH_OUTSIDE' })
  @ApiResponse({ status: 404, type: ErrorResponse, description: READ_404 })
  async partialReindex(@CurrentUser() user: AccessClaims, @Body() body: PartialReindexDto): Promise<ReindexResponse> {
    const id = await this.own(user, body.project_id);
    const entries = this.checkedEntries(body.file_tree);
    const removed = (body.removed ?? []).map(checkedPath);
    return reply(await this.reading(id, () => this.indexer.partialReindex(id, entries, removed)));
  }

  @Post('clone-template')
  @HttpCode(200)
  @ApiOperation({ summary: "Start the project's index as a copy of a template's (a named template, or another project of yours)" })
  @ApiOkResponse({ type: CloneTemplateResponse })
  @ApiResponse({ status: 400, type: ErrorResponse, description: 'VALIDATION_FAILED' })
  @ApiResponse({ status: 404, type: ErrorResponse, description: `${PROJECT_404} (project or template project); VECTOR.TEMPLATE_NOT_FOUND` })
  async cloneTemplate(@CurrentUser() user: AccessClaims, @Body() body: CloneTemplateDto): Promise<CloneTemplateResponse> {
    const id = await this.own(user, body.project_id);
    let key: string;
    if (UUID.test(body.template)) {
      // Another project's index is that project's code: only its owner may copy it.
      key = await this.own(user, body.template);
    } else if (TEMPLATE_NAME.test(body.template)) {
      key = templateKey(body.template);
    } else {
      throw templateNotFound(body.template);
    }
    if (!(await this.indexer.cloneTemplate(id, key))) throw templateNotFound(body.template);
    return { success: true, indexed_files: (await this.index.listFiles(id)).length };
  }

  @Get('query')
  @ApiOperation({ summary: 'The files closest to a text, best first (limit 10 by default, SPEC §9)' })
  @ApiOkResponse({ type: [VectorMatchResponse] })
  @ApiResponse({ status: 400, type: ErrorResponse, description: 'VALIDATION_FAILED' })
  @ApiResponse({ status: 404, type: ErrorResponse, description: PROJECT_404 })
  async query(@CurrentUser() user: AccessClaims, @Query() query: VectorQueryDto): Promise<VectorMatchResponse[]> {
    const id = await this.own(user, query.project_id);
    // A file written just before is findable: wait for the project's queued indexing.
    await this.indexer.whenIdle(id);
    const matches = await this.index.query(id, query.query, query.limit ?? DEFAULT_VECTOR_QUERY_LIMIT);
    return matches.map(VectorMatchResponse.from);
  }

  /** The project id when the caller owns the project; else 404 PROJECTS.NOT_FOUND (non-UUIDs too). */
  private async own(user: AccessClaims, id: string): Promise<string> {
    this.projectId.transform(id);
    unwrap(await this.owned.find(user.userId, id));
    return id;
  }

  /** The tree's entries with every path checked (400 SANDBOX.PATH_OUTSIDE) and normalised. */
  private checkedEntries(tree: readonly unknown[]) {
    return indexEntries(tree).map((entry) => ({ ...entry, path: checkedPath(entry.path) }));
  }

  /** Runs indexing that may read the sandbox, turning its rejections into API errors. */
  private async reading<T>(id: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      throw hostFailure(error, id);
    }
  }
}

function reply(report: IndexReport): ReindexResponse {
  return { success: true, indexed_files: report.indexed, skipped_files: report.skipped, removed_paths: [...report.removed] };
}
