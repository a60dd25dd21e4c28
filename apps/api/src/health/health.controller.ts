import { Controller, Get, HttpStatus, Inject, Optional, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Public } from '../common/public.decorator.js';
import { DATABASE_RETRY_AFTER_SECONDS } from '../error-mapping.js';
import type { SandboxEngineHealth } from '../sandbox/sandbox.module.js';
import { DATABASE_HEALTH, SANDBOX_ENGINE_HEALTH } from '../tokens.js';

/** How long the database may take to answer before it counts as down. */
export const DATABASE_HEALTH_TIMEOUT_MS = 2_000;

export type DatabaseHealth = () => Promise<boolean>;

export class HealthStatus {
  @ApiProperty({ enum: ['ok', 'error'] }) status!: 'ok' | 'error';
  @ApiProperty({ enum: ['up', 'down'] }) database!: 'up' | 'down';
  @ApiProperty({ required: false, enum: ['up', 'down'], description: 'The sandbox engine (SANDBOX_ENGINE=docker only)' }) sandbox_engine?: 'up' | 'down';
  @ApiProperty({ required: false, example: 'DATABASE_DOWN' }) code?: string;
  @ApiProperty({ required: false, example: 'The database is not answering' }) detail?: string;
}

/** True when the check answers true within the timeout; a rejection or a hang counts as down. */
export async function databaseIsUp(check: DatabaseHealth, timeoutMs = DATABASE_HEALTH_TIMEOUT_MS): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  try {
    return (await Promise.race([check().catch(() => false), timeout])) === true;
  } finally {
    clearTimeout(timer);
  }
}

@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(
    @Inject(DATABASE_HEALTH) private readonly databaseHealth: DatabaseHealth,
    @Optional() @Inject(SANDBOX_ENGINE_HEALTH) private readonly engineHealth: SandboxEngineHealth | null = null,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Liveness, database and sandbox engine status (public)' })
  @Public()
  @ApiOkResponse({ type: HealthStatus, description: "{ status: 'ok', database: 'up' }" })
  @ApiResponse({ status: 503, type: HealthStatus, description: 'The database is down' })
  async check(@Res({ passthrough: true }) response: Response): Promise<HealthStatus> {
    response.setHeader('Cache-Control', 'no-store');
    const [database, engine] = await Promise.all([databaseIsUp(this.databaseHealth), this.engineHealth === null ? null : databaseIsUp(this.engineHealth)]);
    const sandboxEngine = engine === null ? {} : { sandbox_engine: engine ? ('up' as const) : ('down' as const) };
    if (database && engine !== false) return { status: 'ok', database: 'up', ...sandboxEngine };
    response.status(HttpStatus.SERVICE_UNAVAILABLE);
    response.setHeader('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS));
    if (!database) return { status: 'error', database: 'down', ...sandboxEngine, code: 'DATABASE_DOWN', detail: 'The database is not answering' };
    return { status: 'error', database: 'up', ...sandboxEngine, code: 'SANDBOX_ENGINE_DOWN', detail: 'The sandbox engine is not answering' };
  }
}
