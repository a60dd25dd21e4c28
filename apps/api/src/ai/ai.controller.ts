import { Body, Controller, Get, HttpCode, Inject, Logger, Post, Req, Res, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import {
  type AccessClaims,
  type AiAssistant,
  UNFINISHED_ANSWER,
  UNFINISHED_PLAN,
  type AiMessage,
  drainAssistantStream,
  failureFromThrown,
  CONTEXT_RESERVE_CHARS,
  fitTree,
  OwnedProjects,
  type ProjectFile,
  TREE_SHARE,
} from '@kiln/domain';
import type { Request, Response } from 'express';
import { CurrentUser } from '../common/current-user.decorator.js';
import { ErrorResponse } from '../common/error-response.dto.js';
import { ApiErrorException, type ErrorBody, httpErrorFor, INTERNAL_ERROR, unwrap, validationFailed } from '../error-mapping.js';
import { AI_ASSISTANT, AI_CONTEXT_LIMIT } from '../tokens.js';
import { ProjectIndexer } from '../vector/project-indexer.js';
import {
  type ChatMessageDto,
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

/** Chat messages for the port: 'system' messages become instructions. */
function conversation(messages: readonly ChatMessageDto[]): { messages: AiMessage[]; system: string[] } {
  const system: string[] = [];
  const chat: AiMessage[] = [];
  for (const m of messages) {
    if (m.role === 'system') system.push(m.content);
    else chat.push({ role: m.role, content: m.content });
  }
  return { messages: chat, system };
}

/** The `type`s of response_format the route reads: 'text' answers text, the JSON ones one JSON object (a schema is not enforced). */
const RESPONSE_FORMAT_TYPES = ['text', 'json_object', 'json_schema'] as const;

/** The port's response format for the body's response_format; null when its type is not one we read. */
function responseFormatOf(format: Record<string, unknown> | undefined): 'text' | 'json' | null {
  const type = format?.['type'] ?? 'text';
  if (type === 'text') return 'text';
  if (type === 'json_object' || type === 'json_schema') return 'json';
  return null;
}

const joined = (...parts: (string | undefined)[]): string | undefined => {
  const text = parts.filter((p): p is string => p !== undefined && p.trim() !== '').join('\n\n');
  return text === '' ? undefined : text;
};

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
    @Inject(OwnedProjects) private readonly owned: OwnedProjects,
    @Inject(ProjectIndexer) private readonly indexer: ProjectIndexer,
    @Inject(AI_CONTEXT_LIMIT) private readonly contextLimitChars: number,
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
    const prompt = await this.call(() => this.assistant.enhancePrompt(body.prompt, body.template_id, abortOnClose(res)));
    return { prompt };
  }

  @Post('summarize')
  @UseGuards(AiRateLimitGuard)
  @ApiResponse({ status: 429, type: ErrorResponse, description: 'AI.RATE_LIMITED (Retry-After)' })
  @HttpCode(200)
  @ApiOperation({ summary: 'A shorter text carrying the conversation’s substance (free)' })
  @ApiOkResponse({ type: SummaryResponse })
  @ApiResponse({ status: 502, type: ErrorResponse, description: 'AI.PROVIDER_FAILED' })
  async summarize(@Body() body: SummarizeDto, @Res({ passthrough: true }) res: Response): Promise<SummaryResponse> {
    const { messages, system } = conversation(body.messages);
    const instruction = joined(body.system, ...system, body.instruction);
    const summary = await this.call(() => this.assistant.summarize(messages, { ...(instruction ? { instruction } : {}), signal: abortOnClose(res) }));
    return { summary };
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
    // Only the configured model answers: naming another is refused rather than silently answered by it.
    if (body.model !== undefined && body.model !== this.assistant.model.id) {
      throw validationFailed([`model: must be the configured model (${this.assistant.model.id}) or left out`]);
    }
    const responseFormat = responseFormatOf(body.response_format);
    if (responseFormat === null) throw validationFailed([`response_format: type must be one of ${RESPONSE_FORMAT_TYPES.join(', ')}`]);
    const { messages, system } = conversation(body.messages);
    const instruction = joined(body.system, ...system);
    // `tools` are accepted for wire compatibility and not executed: the answer is text only.
    const events = this.assistant.complete({
      messages,
      ...(instruction !== undefined ? { system: instruction } : {}),
      ...(body.temperature !== undefined ? { temperature: body.temperature } : {}),
      responseFormat,
      signal: abortOnClose(res),
    });
    if (body.stream !== true) {
      const content = await this.call(async () => {
        let text = '';
        const done = await drainAssistantStream(events, UNFINISHED_ANSWER, (event) => {
          if (event.type === 'text') text += event.text;
        });
        if (!done.ok) throw done.error;
        return text;
      });
      res.status(200).json({ content, model: this.assistant.model.id } satisfies QueryResponse);
      return;
    }
    const sse = SseResponse.start(req, res);
    let content = '';
    const done = await drainAssistantStream(events, UNFINISHED_ANSWER, (event) => {
      if (event.type !== 'text') return;
      content += event.text;
      sse.send('chunk', { text: event.text });
    });
    if (done.ok) sse.send('complete', { content });
    else {
      this.logger.warn(`ai/query failed: ${done.error.message}`);
      sse.send('error', errorData(done.error));
    }
    sse.end();
  }

  // ---------------------------------------------------------------------------------------------

  private async streamPlan(user: AccessClaims, body: PlanRequestDto, req: Request, res: Response, kind: 'modules' | 'tasks'): Promise<void> {
    unwrap(await this.owned.find(user.userId, body.project_id));
    const signal = abortOnClose(res);
    // The project's files when its sandbox exists (through its vector index); a project without one is planned from the prompt.
    let tree: string[] = [];
    let files: ProjectFile[] = [];
    try {
      // The whole request within AI_CONTEXT_CHARS: the listing within its share, files in what is left.
      const treeChars = Math.floor(this.contextLimitChars * TREE_SHARE);
      const budgetChars = Math.max(0, this.contextLimitChars - CONTEXT_RESERVE_CHARS - body.prompt.length - treeChars);
      const context = await this.indexer.contextFor({ projectId: body.project_id, prompt: body.prompt, budgetChars });
      tree = fitTree(context.tree, treeChars);
      files = [...context.files];
    } catch (error) {
      this.logger.debug(`Planning ${body.project_id} without its files: ${error instanceof Error ? error.message : String(error)}`);
    }
    const sse = SseResponse.start(req, res);
    const planned = await drainAssistantStream(this.assistant.plan({ prompt: body.prompt, tree, files, history: [], signal }), UNFINISHED_PLAN, (event) => {
      if (event.type === 'module') sse.send('module', { id: event.module.id, title: event.module.title, description: event.module.description });
      else if (event.type === 'task' && kind === 'tasks') {
        sse.send('task', { id: event.task.id, module_id: event.task.moduleId, title: event.task.title, description: event.task.description });
      }
    });
    if (planned.ok) sse.send('done', planData(planned.value.plan));
    else sse.send('error', errorData(planned.error));
    sse.end();
  }

  /** Runs an assistant call; a failure is answered 502 AI.PROVIDER_FAILED (503 AI.ABORTED). */
  private async call<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      const failure = failureFromThrown(error);
      this.logger.warn(`AI call failed: ${failure.message}`);
      const mapped = httpErrorFor(failure);
      throw new ApiErrorException(mapped ? { status: mapped.status, body: errorData(failure) as ErrorBody } : INTERNAL_ERROR);
    }
  }
}
