import type { AbortSignalLike, AiAssistant, AiMessage } from '@kiln/domain';

export interface AiQueryRequest {
  /** The conversation ('system' messages already folded into `system`). */
  readonly messages: readonly AiMessage[];
  readonly system?: string;
  readonly model?: string;
  readonly temperature?: number;
  readonly tools?: readonly Record<string, unknown>[];
  readonly responseFormat?: Record<string, unknown>;
  readonly signal?: AbortSignalLike;
}

/**
 * What answers POST /api/ai/query: the answer's text in pieces as it is written (a failure
 * rejects, with an AiFailure in `cause` when the provider failed).
 */
export interface AiQueryEngine {
  answer(request: AiQueryRequest): AsyncIterable<string>;
}

/**
 * The query engine built from the AiAssistant port. The port has no general completion yet (it
 * plans, runs tasks, summarizes and enhances prompts), so the answer is the model's reading of the
 * conversation through `summarize`, with `system` as its instruction — deterministic with the
 * offline assistant. `model`, `temperature`, `tools` and `response_format` are accepted and not
 * used. Replace this engine (AI_QUERY_ENGINE) once the port can answer freely.
 */
export class AssistantQueryEngine implements AiQueryEngine {
  constructor(private readonly assistant: AiAssistant) {}

  async *answer(request: AiQueryRequest): AsyncIterable<string> {
    const text = await this.assistant.summarize(request.messages, {
      ...(request.system !== undefined ? { instruction: request.system } : {}),
      ...(request.signal !== undefined ? { signal: request.signal } : {}),
    });
    // A few words at a time, as a model streams.
    const pieces = text.match(/\S+\s*|\s+/g) ?? [text];
    for (let i = 0; i < pieces.length; i += 4) yield pieces.slice(i, i + 4).join('');
  }
}
