import type { AbortSignalLike } from '../shared/abort-signal.js';
import type { CodeError } from '../sandbox/code-error.js';
import type { DomainError } from '../shared/domain-error.js';
import type { FileOperation, OperationRefused } from './operations/file-operation.js';

/** One message of a project's chat, oldest first. */
export interface AiMessage {
  readonly role: 'user' | 'assistant';
  readonly content: string;
}

/** A project file the assistant should read, with its text. */
export interface ProjectFile {
  readonly path: string;
  readonly content: string;
}

/** A column of a project database's table, as the assistant is told it. */
export interface AssistantDatabaseColumn {
  readonly name: string;
  /** PostgreSQL's type name, e.g. `text`, `uuid`, `timestamp with time zone`. */
  readonly type: string;
  readonly nullable: boolean;
}

/**
 * The project's database, for a turn whose project has one ready (docs/databases.md "The
 * assistant and the database"): generated code reaches it with @supabase/supabase-js from
 * VITE_SUPABASE_URL / VITE_SUPABASE_ANON_KEY, and new tables come as SQL migrations under
 * supabase/migrations/. Absent when the project has no database.
 */
export interface AssistantDatabase {
  readonly connected: true;
  /** The tables of `public`, by name. */
  readonly tables: readonly { readonly name: string; readonly rlsEnabled: boolean; readonly columns: readonly AssistantDatabaseColumn[] }[];
  /**
   * A few rows of a table of `public` (1–5, values cut, secret-looking columns "[hidden]"), for
   * the assistant to look at before writing code that reads them; null when there is no such
   * table. Rejects when the database cannot be reached. Absent: the assistant cannot look at rows.
   * The rows are the app's end users' data and go to the model's provider (docs/security.md).
   */
  readonly readSample?: (table: string, limit: number) => Promise<readonly Readonly<Record<string, unknown>>[] | null>;
}

/**
 * A file the person attached to the message (issue 18 item 3). The message names it on a line of
 * its own; the sandbox already has it at `public` + `path`. Configured models get an image's bytes
 * as an image input; the offline assistant reads only the line.
 */
export interface AttachedFile {
  /** `/attachments/<fileName>`: where the app reaches it. */
  readonly path: string;
  readonly contentType: string;
  /** The person's name for it. */
  readonly name: string;
  readonly bytes: Uint8Array;
}

/** Which model answers, for the builder's display and the usage records. */
export interface AiModelInfo {
  /** 'offline', 'anthropic', or the name of an OpenAI-compatible endpoint. */
  readonly provider: string;
  /** The provider's model id, e.g. 'claude-sonnet-4-5'; 'kiln-offline-1' for the offline generator. */
  readonly id: string;
  /** True when no network is used (the deterministic offline generator). */
  readonly offline: boolean;
}


export interface AiUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** Prompt tokens read from or written to the provider's prompt cache, when it reports them. */
  readonly cacheReadTokens?: number;
  readonly cacheWriteTokens?: number;
}

/**
 * The provider failed, refused, or the call was aborted. Streams report it as an 'error' event.
 * AI.DECLINED: the assistant answered that it cannot do what was asked (its message says why and
 * what it can do) — when planning declines, a turn ends before anything is charged.
 */
export type AiFailure = DomainError<'AI.PROVIDER_FAILED' | 'AI.ABORTED' | 'AI.DECLINED'> & {
  /** The provider's HTTP status, when there was one. */
  readonly status?: number;
};

/** A group of tasks in a plan (SPEC §7 stream-modules). */
export interface PlannedModule {
  readonly id: string;
  readonly title: string;
  readonly description: string;
}

/** One step of a plan (SPEC §7 stream-tasks); each is run with runTask and counts as one prompt. */
export interface PlannedTask {
  /** Stable within the plan; an assistant may encode what it needs to run the task in it. */
  readonly id: string;
  readonly moduleId: string;
  readonly title: string;
  readonly description: string;
}

export interface AiPlan {
  /** 'build' makes a new app from the prompt; 'edit' changes the current one. */
  readonly kind: 'build' | 'edit';
  readonly modules: readonly PlannedModule[];
  readonly tasks: readonly PlannedTask[];
}

export interface PlanInput {
  /** What the person asked for. */
  readonly prompt: string;
  /** Every project-relative file path (the tree, TREE_IGNORE_LIST already applied). */
  readonly tree: readonly string[];
  /** The files that matter for the request (entry points, files the prompt names, …). */
  readonly files: readonly ProjectFile[];
  readonly history: readonly AiMessage[];
  /** The project's database, when it has one ready. */
  readonly database?: AssistantDatabase;
  /** Files attached to this message (absent: none). */
  readonly attachments?: readonly AttachedFile[];
  readonly signal?: AbortSignalLike;
}

/**
 * What planning reports: modules and tasks as they are decided, then exactly one 'done' (with
 * the whole plan) or one 'error'; nothing follows either.
 */
export type PlanEvent =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'module'; readonly module: PlannedModule }
  | { readonly type: 'task'; readonly task: PlannedTask }
  | { readonly type: 'usage'; readonly usage: AiUsage }
  | { readonly type: 'done'; readonly plan: AiPlan }
  | { readonly type: 'error'; readonly error: AiFailure };

export interface TaskInput {
  /** The person's request for this turn. */
  readonly prompt: string;
  /** The planned task to do now; absent when the prompt is run as one task. */
  readonly task?: PlannedTask;
  /** The whole plan, so the assistant knows what other tasks will do. */
  readonly plan?: AiPlan;
  /** Every project-relative file path. */
  readonly tree: readonly string[];
  /**
   * The relevant files with their current text. An assistant edits only files it was given: pass
   * the files the request may touch (for small projects, every file under src/ plus index.html
   * and package.json — what the offline assistant reads).
   */
  readonly files: readonly ProjectFile[];
  readonly history: readonly AiMessage[];
  /** Errors found after the previous round (a repair round). */
  readonly previousErrors?: readonly CodeError[];
  /**
   * An edit of this file did not apply (its search text was missing or ambiguous): answer with
   * the whole file (write_file), never another guess.
   */
  readonly needFullFile?: string;
  /** The project's database, when it has one ready. */
  readonly database?: AssistantDatabase;
  /** Files attached to this message (absent: none). */
  readonly attachments?: readonly AttachedFile[];
  readonly signal?: AbortSignalLike;
}

/**
 * What running a task reports, in order: text as it is written, file operations as they are
 * decided (validated and applied by the caller, see applyOperations), usage, then exactly one
 * 'done' or one 'error'; nothing follows either. An operation the model wrote in a shape that
 * cannot be read arrives as 'rejected_operation' and is never applied.
 */
export type AssistantEvent =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'operation'; readonly operation: FileOperation }
  | { readonly type: 'rejected_operation'; readonly tool: string; readonly error: OperationRefused }
  | { readonly type: 'usage'; readonly usage: AiUsage }
  | { readonly type: 'done'; readonly finishReason: 'stop' | 'length' | 'other' }
  | { readonly type: 'error'; readonly error: AiFailure };

export interface SummarizeOptions {
  /** What to keep, e.g. "the decisions about the data model". */
  readonly instruction?: string;
  readonly signal?: AbortSignalLike;
}

export interface CompletionInput {
  /** The conversation, oldest first; the last message is usually the person's question. */
  readonly messages: readonly AiMessage[];
  /** Standing instructions (the provider's system prompt). */
  readonly system?: string;
  /** 0..2; the adapter's default when absent. */
  readonly temperature?: number;
  /** At most this many output tokens; the adapter's default when absent. */
  readonly maxTokens?: number;
  /** 'json': the answer is one JSON object (default 'text'). */
  readonly responseFormat?: 'text' | 'json';
  readonly signal?: AbortSignalLike;
}

/**
 * What a free completion reports: text as it is written, usage, then exactly one 'done' or one
 * 'error'; nothing follows either.
 */
export type CompletionEvent =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'usage'; readonly usage: AiUsage }
  | { readonly type: 'done'; readonly finishReason: 'stop' | 'length' | 'other' }
  | { readonly type: 'error'; readonly error: AiFailure };

/**
 * The model that plans, writes and edits projects (SPEC §7 AI: query, summarize, enhance-prompt,
 * stream-modules, stream-tasks). Provider-neutral: adapters exist for Anthropic, any
 * OpenAI-compatible endpoint and a deterministic offline generator.
 *
 * Streams never throw for provider failures: they end with an 'error' event. The promise
 * methods reject with an Error carrying an AiFailure in `cause`.
 */
export interface AiAssistant {
  readonly model: AiModelInfo;
  /** Splits a request into modules and tasks. */
  plan(input: PlanInput): AsyncIterable<PlanEvent>;
  /** Does one task (or the whole prompt): text and file operations. */
  runTask(input: TaskInput): AsyncIterable<AssistantEvent>;
  /** A shorter text carrying the conversation's substance (to keep long chats in context). */
  summarize(messages: readonly AiMessage[], options?: SummarizeOptions): Promise<string>;
  /** Answers a conversation freely (SPEC §7 query): no tools, no file operations. */
  complete(input: CompletionInput): AsyncIterable<CompletionEvent>;
  /** Rewrites a person's prompt into a clearer, more complete one (for the given template). */
  enhancePrompt(prompt: string, templateId?: string, signal?: AbortSignalLike): Promise<string>;
}

export const aiFailure = (code: AiFailure['code'], message: string, status?: number): AiFailure =>
  status === undefined ? { code, message } : { code, message, status };
