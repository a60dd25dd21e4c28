import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { type AccessClaims, ApplyMigrations, CheckDatabase, DeleteDatabase, type ObjectStore, ProvisionDatabase, type SandboxFiles } from '@kiln/domain';
import { CurrentUser } from '../common/current-user.decorator.js';
import { ErrorResponse } from '../common/error-response.dto.js';
import { RequiresBearer } from '../common/public.decorator.js';
import type { AppConfig } from '../config.js';
import { unwrap } from '../error-mapping.js';
import { ProjectIdPipe } from '../projects/project-id.pipe.js';
import { APP_CONFIG, DATA_ORIGIN, OBJECT_STORE, SANDBOX_HOST } from '../tokens.js';
import { removeConnectionFile, writeConnectionFile } from './connection-file.js';
import { signAnonKey } from './anon-key.js';
import { dataUrlFor } from './databases-config.js';
import type { DataOriginHandler } from './databases.module.js';
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
    @Inject(ApplyMigrations) private readonly migrations: ApplyMigrations,
    @Inject(SANDBOX_HOST) private readonly files: SandboxFiles,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(DATA_ORIGIN) private readonly dataOrigin: DataOriginHandler | null,
  ) {}

  @Post('provision')
  @HttpCode(200)
  @ApiOperation({ summary: 'Connect a database to the project (idempotent: the same database again), and answer what the app needs to reach it' })
  @ApiOkResponse({ type: ProvisionDatabaseResponse })
  @ApiResponse({ status: 400, type: ErrorResponse, description: 'VALIDATION_FAILED' })
  @ApiResponse({ status: 409, type: ErrorResponse, description: 'DATABASES.PROVISIONING: another request is creating it' })
  async provisionDatabase(@CurrentUser() user: AccessClaims, @Body() body: ProvisionDatabaseDto): Promise<ProvisionDatabaseResponse> {
    const database = unwrap(await this.provision.execute(user.userId, body.project_id));
    // A reattached database has a new password: the data API drops its old lookup and pool now.
    void this.dataOrigin?.forget?.(database.ref);
    const url = dataUrlFor(this.config.databases.dataUrlTemplate, database.ref);
    const anonKey = await signAnonKey(database.ref, database.jwtSecret);
    // The app reads these as import.meta.env (docs/databases.md "The connection file").
    await writeConnectionFile(this.files, database.projectId, url, anonKey);
    return { project_id: database.projectId, ref: database.ref, url, anon_key: anonKey, connected: true };
  }

  @Post('migrate/:projectId')
  @HttpCode(200)
  @ApiOperation({ summary: 'Apply the project’s pending migrations (supabase/migrations/*.sql, else db/migrations/*.sql) to its database, in one transaction' })
  @ApiResponse({ status: 200, description: '{ folder, applied, kept, message }' })
  @ApiResponse({ status: 404, type: ErrorResponse, description: 'DATABASES.NOT_CONNECTED' })
  @ApiResponse({ status: 409, type: ErrorResponse, description: 'DATABASES.MIGRATION_CHANGED: an applied file was edited; PROJECTS.BUSY: an AI turn is running' })
  @ApiResponse({ status: 422, type: ErrorResponse, description: 'DATABASES.MIGRATION_FAILED with file and line: nothing was applied' })
  async migrate(
    @CurrentUser() user: AccessClaims,
    @Param('projectId', ProjectIdPipe) projectId: string,
  ): Promise<{ folder: string | null; applied: readonly string[]; kept: readonly string[]; message: string }> {
    const report = unwrap(await this.migrations.execute(user.userId, projectId));
    return { folder: report.folder, applied: report.applied, kept: report.kept, message: report.message };
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
  constructor(
    @Inject(DeleteDatabase) private readonly remove: DeleteDatabase,
    @Inject(SANDBOX_HOST) private readonly files: SandboxFiles,
    @Inject(DATA_ORIGIN) private readonly dataOrigin: DataOriginHandler | null,
    @Inject(OBJECT_STORE) private readonly objects: ObjectStore,
  ) {}

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
    // The data origin stops answering for it now, not when its cached lookup expires.
    void this.dataOrigin?.forget?.(deleted.ref);
    // Dropped with its data: its stored files too (a detached database keeps them with its rows).
    if (deleted.droppedFromProvider) await this.objects.deletePrefix(deleted.ref).catch((e: unknown) => console.error(`storage: could not delete the files of ${deleted.ref}:`, e));
    await removeConnectionFile(this.files, projectId);
    return { ref: deleted.ref, deleted_from_provider: deleted.droppedFromProvider, connected: false };
  }
}
