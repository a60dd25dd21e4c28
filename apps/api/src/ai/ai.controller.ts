import { Body, Controller, Get, HttpCode, Inject, Logger, Post, Req, Res, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import { type AccessClaims, type AiAssistant, type AiFailure, AskModel, EnhancePrompt, PreviewPlan, type Result, SummarizeConversation } from '@kiln/domain';
import type { Request, Response } from 'express';
import { CurrentUser } from '../common/current-user.decorator.js';
import { ErrorResponse } from '../common/error-response.dto.js';
import { ApiErrorException, type ErrorBody, httpErrorFor, INTERNAL_ERROR, unwrap, validationFailed } from '../error-mapping.js';
import { AI_ASSISTANT } from '../tokens.js';
import {
  EnhancedPromptResponse,
  EnhancePromptDto,
  ModelResponse,
  PlanRequestDto,
  QueryDto,
  QueryResponse,
  SummarizeDto,
  SummaryResponse,
} from './dto/ai.dto.js';
import { AiRateLimitGuard } from './ai-rate-limit.guard.js';
import { abortOnClose } from '../common/abort-on-close.js';
import { SseResponse } from './sse-response.js';
import { errorData, planData } from './turn-wire.js';

/** The `type`s of response_format the route reads: 'text' answers text, the JSON ones one JSON object (a schema is not enforced). */
const RESPONSE_FORMAT_TYPES = ['text', 'json_object', 'json_schema'] as const;

/** The port's response format for the body's response_format; null when its type is not one we read. */
function responseFormatOf(format: Record<string, unknown> | undefined): 'text' | 'json' | null {
  const type = format?.['type'] ?? 'text';
  if (type === 'text') return 'text';
  if (type === 'json_object' || type === 'json_schema') return 'json';
  return null;
}

/**
 * The AI helpers of SPEC §7 (docs/ai-api.md): prompt enhancement, summaries, planning streams
 * (free, nothing applied), a general query and the model in use. A provider failure is 502
 * AI.PROVIDER_FAILED (or an `error` event once a stream has started).
 */
@ApiTags('ai')
@ApiBearerAuth()
@ApiResponse({ status: 401, type: ErrorResponse })
@ApiResponse({ status: 400, type: ErrorResponse, description: 'VALIDATION_FAILED' })
@Controller('api/ai')
export class AiController {
  private readonly logger = new Logger('Ai');

  constructor(
    @Inject(AI_ASSISTANT) private readonly assistant: AiAssistant,
    @Inject(EnhancePrompt) private readonly enhance: EnhancePrompt,
    @Inject(SummarizeConversation) private readonly summarizer: SummarizeConversation,
    @Inject(AskModel) private readonly ask: AskModel,
    @Inject(PreviewPlan) private readonly previewPlan: PreviewPlan,
  ) {}

  @Get('model')
  @ApiOperation({ summary: 'The model that answers: provider, id, and whether it is the offline generator' })
  @ApiOkResponse({ type: ModelResponse })
  model(): ModelResponse {
    return ModelResponse.from(this.assistant.model);
  }

  @Post('enhance-prompt')
  @UseGuards(AiRateLimitGuard)
  @ApiResponse({ status: 429, type: ErrorResponse, description: 'AI.RATE_LIMITED (Retry-After)' })
  @HttpCode(200)
  @ApiOperation({ summary: 'Rewrite a prompt into a clearer, more complete one (free)' })
  @ApiOkResponse({ type: EnhancedPromptResponse })
  @ApiResponse({ status: 502, type: ErrorResponse, description: 'AI.PROVIDER_FAILED' })
  async enhancePrompt(@Body() body: EnhancePromptDto, @Res({ passthrough: true }) res: Response): Promise<EnhancedPromptResponse> {
    return { prompt: this.answered(await this.enhance.execute(body.prompt, body.template_id, abortOnClose(res))) };
  }

  @Post('summarize')
  @UseGuards(AiRateLimitGuard)
  @ApiResponse({ status: 429, type: ErrorResponse, description: 'AI.RATE_LIMITED (Retry-After)' })
  @HttpCode(200)
  @ApiOperation({ summary: 'A shorter text carrying the conversation’s substance (free)' })
  @ApiOkResponse({ type: SummaryResponse })
  @ApiResponse({ status: 502, type: ErrorResponse, description: 'AI.PROVIDER_FAILED' })
  async summarize(@Body() body: SummarizeDto, @Res({ passthrough: true }) res: Response): Promise<SummaryResponse> {
    const summary = await this.summarizer.execute({
      messages: body.messages,
      ...(body.system === undefined ? {} : { system: body.system }),
      ...(body.instruction === undefined ? {} : { instruction: body.instruction }),
      signal: abortOnClose(res),
    });
    return { summary: this.answered(summary) };
  }

  @Post('stream-modules')
  @UseGuards(AiRateLimitGuard)
  @ApiResponse({ status: 429, type: ErrorResponse, description: 'AI.RATE_LIMITED (Retry-After)' })
  @ApiOperation({ summary: 'Plan a prompt for a project: module events, then done with the plan (free, nothing applied)' })
  @ApiProduces('text/event-stream')
  @ApiOkResponse({ description: 'SSE: module…, done {kind, modules, tasks, cost} | error {code, detail}' })
  @ApiResponse({ status: 404, type: ErrorResponse, description: 'PROJECTS.NOT_FOUND' })
  async streamModules(@CurrentUser() user: AccessClaims, @Body() body: PlanRequestDto, @Req() req: Request, @Res() res: Response): Promise<void> {
    await this.streamPlan(user, body, req, res, 'modules');
  }

  @Post('stream-tasks')
  @UseGuards(AiRateLimitGuard)
  @ApiResponse({ status: 429, type: ErrorResponse, description: 'AI.RATE_LIMITED (Retry-After)' })
  @ApiOperation({ summary: 'Plan a prompt for a project: module and task events, then done with the plan (free, nothing applied)' })
  @ApiProduces('text/event-stream')
  @ApiOkResponse({ description: 'SSE: module…, task…, done {kind, modules, tasks, cost} | error {code, detail}' })
  @ApiResponse({ status: 404, type: ErrorResponse, description: 'PROJECTS.NOT_FOUND' })
  async streamTasks(@CurrentUser() user: AccessClaims, @Body() body: PlanRequestDto, @Req() req: Request, @Res() res: Response): Promise<void> {
    await this.streamPlan(user, body, req, res, 'tasks');
  }

  @Post('query')
  @UseGuards(AiRateLimitGuard)
  @ApiResponse({ status: 429, type: ErrorResponse, description: 'AI.RATE_LIMITED (Retry-After)' })
  @HttpCode(200)
  @ApiOperation({ summary: 'Ask the model: { content, model }, or with stream: true SSE chunk / complete / error' })
  @ApiOkResponse({ type: QueryResponse, description: 'With stream: true a text/event-stream: chunk {text}…, complete {content} | error {code, detail}' })
  @ApiResponse({ status: 502, type: ErrorResponse, description: 'AI.PROVIDER_FAILED (without stream)' })
  async query(@Body() body: QueryDto, @Req() req: Request, @Res() res: Response): Promise<void> {
    const responseFormat = responseFormatOf(body.response_format);
    if (responseFormat === null) throw validationFailed([`response_format: type must be one of ${RESPONSE_FORMAT_TYPES.join(', ')}`]);
    // `tools` are accepted for wire compatibility and not executed: the answer is text only.
    const answer = unwrap(
      this.ask.execute({
        messages: body.messages,
        ...(body.system === undefined ? {} : { system: body.system }),
        ...(body.model === undefined ? {} : { model: body.model }),
        ...(body.temperature === undefined ? {} : { temperature: body.temperature }),
        responseFormat,
        signal: abortOnClose(res),
      }),
    );
    if (body.stream !== true) {
      const content = this.answered(await answer.read());
      res.status(200).json({ content, model: answer.model } satisfies QueryResponse);
      return;
    }
    const sse = SseResponse.start(req, res);
    const done = await answer.read((text) => sse.send('chunk', { text }));
    if (done.ok) sse.send('complete', { content: done.value });
    else {
      this.logger.warn(`ai/query failed: ${done.error.message}`);
      sse.send('error', errorData(done.error));
    }
    sse.end();
  }

  // ---------------------------------------------------------------------------------------------

  private async streamPlan(user: AccessClaims, body: PlanRequestDto, req: Request, res: Response, kind: 'modules' | 'tasks'): Promise<void> {
    const preview = unwrap(await this.previewPlan.execute({ userId: user.userId, projectId: body.project_id, prompt: body.prompt, signal: abortOnClose(res) }));
    const sse = SseResponse.start(req, res);
    const planned = await preview.read((step) => {
      if (step.type === 'module') sse.send('module', { id: step.module.id, title: step.module.title, description: step.module.description });
      else if (kind === 'tasks') sse.send('task', { id: step.task.id, module_id: step.task.moduleId, title: step.task.title, description: step.task.description });
    });
    if (planned.ok) sse.send('done', planData(planned.value));
    else sse.send('error', errorData(planned.error));
    sse.end();
  }

  /** A helper's answer, or its failure answered 502 AI.PROVIDER_FAILED (503 AI.ABORTED). */
  private answered<T>(result: Result<T, AiFailure>): T {
    if (result.ok) return result.value;
    this.logger.warn(`AI call failed: ${result.error.message}`);
    const mapped = httpErrorFor(result.error);
    throw new ApiErrorException(mapped ? { status: mapped.status, body: errorData(result.error) as ErrorBody } : INTERNAL_ERROR);
  }
}
