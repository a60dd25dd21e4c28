import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { type AccessClaims, CheckDatabase, DeleteDatabase, ProvisionDatabase } from '@kiln/domain';
import { CurrentUser } from '../common/current-user.decorator.js';
import { ErrorResponse } from '../common/error-response.dto.js';
import { RequiresBearer } from '../common/public.decorator.js';
import type { AppConfig } from '../config.js';
import { unwrap } from '../error-mapping.js';
import { ProjectIdPipe } from '../projects/project-id.pipe.js';
import { APP_CONFIG } from '../tokens.js';
import { signAnonKey } from './anon-key.js';
import { dataUrlFor } from './databases-config.js';
import {
  DatabaseCheckResponse,
  DeleteDatabaseQuery,
  DeleteDatabaseResponse,
  ProvisionDatabaseDto,
  ProvisionDatabaseResponse,
} from './dto/databases.dto.js';

/** SPEC §7 "Database": connect a database to a project and check it (docs/databases.md "Provisioning API"). */
@ApiTags('databases')
@ApiBearerAuth()
@ApiResponse({ status: 401, type: ErrorResponse })
@ApiResponse({ status: 404, type: ErrorResponse, description: 'PROJECTS.NOT_FOUND (also another user’s project)' })
@ApiResponse({ status: 503, type: ErrorResponse, description: 'DATABASES.SERVER_UNAVAILABLE' })
@Controller('api/db')
export class DbController {
  constructor(
    @Inject(ProvisionDatabase) private readonly provision: ProvisionDatabase,
    @Inject(CheckDatabase) private readonly check: CheckDatabase,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post('provision')
  @HttpCode(200)
  @ApiOperation({ summary: 'Connect a database to the project (idempotent: the same database again), and answer what the app needs to reach it' })
  @ApiOkResponse({ type: ProvisionDatabaseResponse })
  @ApiResponse({ status: 400, type: ErrorResponse, description: 'VALIDATION_FAILED' })
  @ApiResponse({ status: 409, type: ErrorResponse, description: 'DATABASES.PROVISIONING: another request is creating it' })
  async provisionDatabase(@CurrentUser() user: AccessClaims, @Body() body: ProvisionDatabaseDto): Promise<ProvisionDatabaseResponse> {
    const database = unwrap(await this.provision.execute(user.userId, body.project_id));
    return {
      project_id: database.projectId,
      ref: database.ref,
      url: dataUrlFor(this.config.databases.dataUrlTemplate, database.ref),
      anon_key: await signAnonKey(database.ref, database.jwtSecret),
      connected: true,
    };
  }

  @Get('check/:projectId')
  @ApiOperation({ summary: 'Whether the project has a database, its size against the plan’s quota, and its tables with row-level security per table' })
  @ApiOkResponse({ type: DatabaseCheckResponse })
  async checkDatabase(@CurrentUser() user: AccessClaims, @Param('projectId', ProjectIdPipe) projectId: string): Promise<DatabaseCheckResponse> {
    const result = unwrap(await this.check.execute(user.userId, projectId));
    if (!result.connected) return { connected: false, size_bytes: 0, tables: [] };
    const { database, inspection, limits } = result;
    return {
      connected: true,
      ref: database.ref,
      url: dataUrlFor(this.config.databases.dataUrlTemplate, database.ref),
      // Public by design (rows are protected by row-level security): the builder shows it after a reload.
      anon_key: await signAnonKey(database.ref, database.jwtSecret),
      size_bytes: inspection.sizeBytes,
      quota_bytes: limits.sizeMb * 1024 * 1024,
      over_quota: result.overQuota,
      max_connections: limits.connections,
      tables: inspection.tables.map((t) => ({
        schema: t.schema,
        name: t.name,
        rls_enabled: t.rlsEnabled,
        row_estimate: t.rowEstimate,
        columns: t.columns.map((c) => ({ name: c.name, type: c.type, nullable: c.nullable })),
      })),
    };
  }
}

/**
 * SPEC §7: `DELETE /database/{id}?deleteFromProvider=true|false`, outside /api as the SPEC has it;
 * @RequiresBearer makes the guard check it like /api. `{id}` is the project id (the app never sees
 * the record's own id). Only DELETE is routed here, so the web app's page fallback (GET) is unaffected.
 */
@ApiTags('databases')
@ApiBearerAuth()
@RequiresBearer()
@ApiResponse({ status: 401, type: ErrorResponse })
@ApiResponse({ status: 404, type: ErrorResponse, description: 'PROJECTS.NOT_FOUND, DATABASES.NOT_CONNECTED' })
@ApiResponse({ status: 503, type: ErrorResponse, description: 'DATABASES.SERVER_UNAVAILABLE' })
@Controller('database')
export class DatabaseController {
  constructor(@Inject(DeleteDatabase) private readonly remove: DeleteDatabase) {}

  @Delete(':id')
  @ApiOperation({ summary: 'Disconnect the project’s database: deleteFromProvider=true drops it with its data; false (default) detaches it and keeps the data' })
  @ApiOkResponse({ type: DeleteDatabaseResponse })
  @ApiResponse({ status: 400, type: ErrorResponse, description: 'VALIDATION_FAILED' })
  async deleteDatabase(
    @CurrentUser() user: AccessClaims,
    @Param('id', ProjectIdPipe) projectId: string,
    @Query() query: DeleteDatabaseQuery,
  ): Promise<DeleteDatabaseResponse> {
    const deleted = unwrap(await this.remove.execute(user.userId, projectId, query.deleteFromProvider === 'true'));
    return { ref: deleted.ref, deleted_from_provider: deleted.droppedFromProvider, connected: false };
  }
}
