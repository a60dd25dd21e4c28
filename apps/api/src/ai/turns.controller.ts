import { Body, Controller, Get, HttpCode, Inject, Logger, Param, Post, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import { AcceptTurnPlan, type AccessClaims, CancelTurnPlan, ListTurns, RunTurn, StopTurn, refusedBeforeStart, streamsFrom, type TurnEvent, type TurnRun, err, turnNotFound } from '@kiln/domain';
import type { Request, Response } from 'express';
import { CurrentUser } from '../common/current-user.decorator.js';
import { ErrorResponse } from '../common/error-response.dto.js';
import { toException, unwrap } from '../error-mapping.js';
import { ProjectIdPipe } from '../projects/project-id.pipe.js';
import { StartTurnDto, TurnView } from './dto/turn.dto.js';
import { SseResponse } from './sse-response.js';
import { wireEvent } from './turn-wire.js';

const PROJECT_404 = 'PROJECTS.NOT_FOUND (also another user’s project)';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const STREAM = 'text/event-stream of turn events (docs/ai-api.md)';

/** Turn ids are UUIDs: anything else is the same 404 as a missing turn. */
function checkedTurnId(turnId: string): string {
  if (!UUID.test(turnId)) unwrap(err(turnNotFound(turnId)));
  return turnId;
}

/**
 * A project's chat (docs/ai-api.md): a message is a turn, answered as a stream of turn events.
 * The reply is held until the first credit is charged, so a refused first debit is an ordinary
 * 402 JSON error; from then on (or when the turn ends before charging: a plan waiting for
 * approval, a failed plan) it is a stream. A turn goes on if its client leaves, and its file
 * changes are published on the project's realtime feed.
 */
@ApiTags('ai')
@ApiBearerAuth()
@ApiResponse({ status: 401, type: ErrorResponse })
@Controller('api/projects/:id/turns')
export class TurnsController {
  private readonly logger = new Logger('Turns');

  constructor(
    @Inject(RunTurn) private readonly runTurn: RunTurn,
    @Inject(AcceptTurnPlan) private readonly acceptTurnPlan: AcceptTurnPlan,
    @Inject(CancelTurnPlan) private readonly cancelTurnPlan: CancelTurnPlan,
    @Inject(ListTurns) private readonly listTurns: ListTurns,
    @Inject(StopTurn) private readonly stopTurn: StopTurn,
  ) {}

  @Post()
  @ApiOperation({ summary: 'Send a message: plan, run (one credit per task), check, keep or revert — streamed' })
  @ApiProduces('text/event-stream')
  @ApiOkResponse({ description: STREAM })
  @ApiResponse({ status: 400, type: ErrorResponse, description: 'VALIDATION_FAILED' })
  @ApiResponse({ status: 402, type: ErrorResponse, description: "CREDITS.LIMIT_REACHED, limit_type 'credit' (before any streaming)" })
  @ApiResponse({ status: 404, type: ErrorResponse, description: `${PROJECT_404}; ATTACHMENTS.NOT_FOUND (an attachment id not of this project)` })
  @ApiResponse({ status: 409, type: ErrorResponse, description: 'TURNS.IDEMPOTENCY_CONFLICT (key used for another message), TURNS.IN_PROGRESS (retry of a running turn)' })
  async start(
    @CurrentUser() user: AccessClaims,
    @Param('id', ProjectIdPipe) id: string,
    @Body() body: StartTurnDto,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const run = unwrap(
      await this.runTurn.execute({
        userId: user.userId,
        projectId: id,
        message: body.message,
        idempotencyKey: body.idempotency_key,
        autoRun: body.auto_run === true,
        ...(body.attachment_ids ? { attachmentIds: body.attachment_ids } : {}),
      }),
    );
    await this.stream(id, run, req, res);
  }

  @Post(':turnId/accept')
  @ApiOperation({ summary: 'Run a plan that waits for approval — streamed like a message' })
  @ApiProduces('text/event-stream')
  @ApiOkResponse({ description: STREAM })
  @ApiResponse({ status: 402, type: ErrorResponse, description: "CREDITS.LIMIT_REACHED (the plan keeps waiting)" })
  @ApiResponse({ status: 404, type: ErrorResponse, description: `${PROJECT_404}; TURNS.NOT_FOUND` })
  @ApiResponse({ status: 409, type: ErrorResponse, description: 'TURNS.NOT_AWAITING_APPROVAL' })
  async accept(
    @CurrentUser() user: AccessClaims,
    @Param('id', ProjectIdPipe) id: string,
    @Param('turnId') turnId: string,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const run = unwrap(await this.acceptTurnPlan.execute({ userId: user.userId, projectId: id, turnId: checkedTurnId(turnId) }));
    await this.stream(id, run, req, res);
  }

  @Post(':turnId/cancel')
  @HttpCode(200)
  @ApiOperation({ summary: 'Drop a plan that waits for approval (nothing is charged)' })
  @ApiOkResponse({ schema: { properties: { success: { type: 'boolean', example: true } } } })
  @ApiResponse({ status: 404, type: ErrorResponse, description: `${PROJECT_404}; TURNS.NOT_FOUND` })
  @ApiResponse({ status: 409, type: ErrorResponse, description: 'TURNS.NOT_AWAITING_APPROVAL' })
  async cancel(@CurrentUser() user: AccessClaims, @Param('id', ProjectIdPipe) id: string, @Param('turnId') turnId: string): Promise<{ success: true }> {
    unwrap(await this.cancelTurnPlan.execute({ userId: user.userId, projectId: id, turnId: checkedTurnId(turnId) }));
    return { success: true };
  }

  @Post(':turnId/stop')
  @HttpCode(200)
  @ApiOperation({
    summary: "Stop a queued or running turn: its changes undone, the credits of the tasks it had not finished refunded; answers the turn as it ended (a finished turn as it is)",
  })
  @ApiOkResponse({ type: TurnView })
  @ApiResponse({ status: 404, type: ErrorResponse, description: `${PROJECT_404}; TURNS.NOT_FOUND` })
  async stop(@CurrentUser() user: AccessClaims, @Param('id', ProjectIdPipe) id: string, @Param('turnId') turnId: string): Promise<TurnView> {
    return TurnView.from(unwrap(await this.stopTurn.execute({ userId: user.userId, projectId: id, turnId: checkedTurnId(turnId) })));
  }

  @Get()
  @ApiOperation({ summary: "The project's chat history, oldest first" })
  @ApiOkResponse({ type: [TurnView] })
  @ApiResponse({ status: 404, type: ErrorResponse, description: PROJECT_404 })
  async list(@CurrentUser() user: AccessClaims, @Param('id', ProjectIdPipe) id: string): Promise<TurnView[]> {
    return unwrap(await this.listTurns.execute({ userId: user.userId, projectId: id })).map(TurnView.from);
  }

  // ---------------------------------------------------------------------------------------------

  /**
   * Streams a run's events. Held until the first `credits` event (or the end): a first debit
   * refused before that is answered as a JSON 402 instead. Every event is read to the end even
   * when the client has left, so the turn's feed publications and logs still happen.
   */
  private async stream(projectId: string, run: TurnRun, req: Request, res: Response): Promise<void> {
    const held: TurnEvent[] = [];
    let sse: SseResponse | null = null;
    const send = (event: TurnEvent) => {
      const wire = wireEvent(event);
      if (wire !== null) sse?.send(wire.event, wire.data);
    };
    for await (const event of run.events) {
      this.sideEffects(projectId, run.turnId, event);
      if (sse !== null) {
        send(event);
        continue;
      }
      const refused = refusedBeforeStart(event);
      if (refused !== null) throw toException(refused);
      held.push(event);
      if (streamsFrom(event)) {
        sse = SseResponse.start(req, res);
        held.forEach(send);
      }
    }
    if (sse === null) {
      sse = SseResponse.start(req, res);
      held.forEach(send);
    }
    sse.end();
  }

  private sideEffects(projectId: string, turnId: string, event: TurnEvent): void {
    // Changed files reach the builder and the index through the turn's ProjectFilesChanged port.
    if (event.type === 'error' && event.cause !== undefined) {
      const cause = event.cause instanceof Error ? (event.cause.stack ?? event.cause.message) : String(event.cause);
      this.logger.error(`Turn ${turnId} of project ${projectId} failed: ${cause}`);
    } else if (event.type === 'error' && event.error.code === 'AI.PROVIDER_FAILED') {
      this.logger.warn(`Turn ${turnId} of project ${projectId}: the AI provider failed: ${event.error.message}`);
    }
  }
}
