export type AiRole = 'system' | 'user' | 'assistant';

export interface AiMessage {
  readonly role: AiRole;
  readonly content: string;
}

/** A tool the assistant may call; `inputSchema` is a JSON Schema object describing its input. */
export interface AiTool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: Readonly<Record<string, unknown>>;
}

export interface AiQueryOptions {
  /** The model to use; the adapter's default when omitted. */
  readonly model?: string;
  readonly temperature?: number;
  /** Standing instructions, kept apart from the conversation. */
  readonly system?: string;
  readonly tools?: readonly AiTool[];
  /** Ask the provider to cache the tool definitions briefly (SPEC §7 "ephemeral cache control"). */
  readonly cacheTools?: boolean;
  /** 'json' asks for a single JSON document as the reply text. Default 'text'. */
  readonly responseFormat?: 'text' | 'json';
}

export interface AiToolCall {
  readonly id: string;
  readonly name: string;
  readonly input: unknown;
}

export interface AiUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
}

export interface AiReply {
  readonly text: string;
  readonly toolCalls: readonly AiToolCall[];
  readonly usage?: AiUsage;
}

/**
 * What a streamed query reports (SPEC §7: chunk, complete, error). A stream ends with exactly
 * one 'complete' or one 'error' event; nothing follows it.
 */
export type AiStreamEvent =
  | { readonly type: 'chunk'; readonly text: string }
  | { readonly type: 'complete'; readonly reply: AiReply }
  | { readonly type: 'error'; readonly message: string };

export interface SummarizeOptions {
  /** What to keep, e.g. "the decisions about the data model". */
  readonly instruction?: string;
  readonly system?: string;
}

/**
 * The language model that writes and edits projects (SPEC §7 AI). The streamed module and task
 * generators (stream-modules, stream-tasks) are left out until the SPEC shows their payloads.
 */
export interface AiAssistant {
  /** One complete reply. Rejects when the provider cannot be reached or refuses the request. */
  query(messages: readonly AiMessage[], options?: AiQueryOptions): Promise<AiReply>;
  /** The reply as it is written. Provider failures arrive as an 'error' event, not a throw. */
  stream(messages: readonly AiMessage[], options?: AiQueryOptions): AsyncIterable<AiStreamEvent>;
  /** A shorter text carrying the conversation's substance. */
  summarize(messages: readonly AiMessage[], options?: SummarizeOptions): Promise<string>;
  /** Rewrites a person's prompt into a clearer one for the given project template. */
  enhancePrompt(prompt: string, templateId: string): Promise<string>;
}
