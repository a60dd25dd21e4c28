import {
  aiFailure,
  applyOperations,
  validateOperation,
  type AbortSignalLike,
  type AiAssistant,
  type AiMessage,
  type AiModelInfo,
  type AiPlan,
  type AssistantEvent,
  type CodeError,
  type CompletionEvent,
  type CompletionInput,
  type FileOperation,
  type PlanEvent,
  type PlannedModule,
  type PlannedTask,
  type PlanInput,
  type SummarizeOptions,
  type TaskInput,
} from '@kiln/domain';
import { appContext, appWords, buildStages, filesAtStage, kindWords, type BuildStage } from './app-generator.js';
import { dataDependencies, noDatabaseReason } from './data/data-request.js';
import { parseEdits, type EditIntent } from './edit-intent.js';
import { applyEdit } from './apply-edit.js';
import { withArticle } from './code.js';
import { WorkingFiles } from './edits.js';
import { APP_KINDS, DEFAULT_NAMES, guessKind, parseAppSpec, SECTION_LABELS } from './intent.js';
import { describesAnApp, hasAppOfItsOwn, readIdea, readRequest, seedOf, type OfflineRequest } from './offline-request.js';
import { parseFixPrompt, repairError, REPAIR_LIMITS, type Repair } from './repair.js';
import { operationsForFiles } from './operations.js';

export const OFFLINE_MODEL: AiModelInfo = Object.freeze({ provider: 'offline', id: 'kiln-offline-1', offline: true });

const TASK_PREFIX = 'offline:';
const FIX_TASK = `${TASK_PREFIX}fix`;

function fixPlan(file: string, line: number, repair: Repair): AiPlan {
  const module: PlannedModule = { id: `${TASK_PREFIX}module:fix`, title: 'Fix the error', description: repair.summary };
  return { kind: 'edit', modules: [module], tasks: [{ id: FIX_TASK, moduleId: module.id, title: `Fix the error in ${file}:${line}`, description: repair.summary }] };
}
const STAGES: readonly BuildStage[] = ['layout', 'core', 'sections', 'theme'];

export interface OfflineAiAssistantOptions {
  /** Pause between streamed text chunks, for a lifelike preview (default 0: no pause). */
  readonly chunkDelayMs?: number;
}

/** The changes it can make to an existing app, for declining what it cannot. */
export const EDIT_CAPABILITIES =
  'Offline I can change this app in these ways: rename it; change the heading, the subtitle or a button; replace a quoted text; change colours, dark or light theme, font or corners; add a dark mode toggle; add or remove a section (FAQ, testimonials, pricing, team, contact form, newsletter, gallery, …); add a page in the same layout (an About page, a FAQ page, a shopping list or other checklist, a habit tracker, …); and add favourites with a heart button to a recipe app. Configure an AI provider for anything else.';

const CAPABILITIES = `Offline, without an AI provider, I can build a new app (${APP_KINDS.map((k) => kindWords(k)).join(', ')}). ${EDIT_CAPABILITIES}`;

/** What the offline assistant says it can build and change, for completions. */
export const OFFLINE_CAPABILITIES_ANSWER = [
  'I am Kiln’s offline assistant: I work without an AI provider, deterministically.',
  `I can build these kinds of apps: ${APP_KINDS.map(kindWords).join(', ')}.`,
  'In an app I built I can rename it; change the heading, the subtitle or a button; replace a quoted text; change the primary or background colour, dark or light theme, font and corners; add a dark mode toggle; add or remove a section (' +
    Object.values(SECTION_LABELS).join(', ') +
    '); add a page in the same layout (a checklist such as a shopping list, a habit tracker, …); and add favourites to a recipe app.',
  'With a database connected to the project, I build a todo list, notes app, habit tracker or booking app where each person signs in and keeps their own data in the database (with the SQL migration of its table).',
  'I can also fix mechanical code errors: a missing closing bracket, a stray character, a missing import or a misspelt name.',
  'Describe the app you want, or the change, and I will plan and make it.',
].join('\n');

const LIMITED_CONVERSATION =
  'I am Kiln’s offline assistant and my conversation abilities are limited: I can only build the apps and make the changes I know (ask what I can build). Configure an AI provider for anything else.';

const ABOUT_ABILITIES = /\b(what|which)\b.*\b(can|could|do)\s+(you|i)\b.*\b(build|make|create|do|edit|change|support)\b|\b(capabilities|abilities|help)\b|\bwhat kinds?\b/i;
/** A question about the world (not a request for an app or a change). */
const GENERAL_QUESTION = /^\s*(what|why|how|who|whom|whose|when|where|is|are|was|were|does|do|did|explain|tell me|define)\b/i;

function describeIntent(intent: EditIntent): string {
  switch (intent.type) {
    case 'rename':
      return `rename the app to “${intent.name}”`;
    case 'heading':
      return `change the heading to “${intent.text}”`;
    case 'subtitle':
      return `change the subtitle to “${intent.text}”`;
    case 'button':
      return intent.from ? `change the “${intent.from}” button to “${intent.to}”` : `change the main button to “${intent.to}”`;
    case 'replace-text':
      return `replace “${intent.from}” with “${intent.to}”`;
    case 'replace-selected':
      return `change the selected “${intent.from}” to “${intent.to}”`;
    case 'logo':
      return 'use the attached image as the logo';
    case 'hero-image':
      return 'put the attached image on the home page';
    case 'theme':
      return [
        intent.primary ? `use ${intent.primary} as the primary colour` : null,
        intent.background ? `use ${intent.background} as the background` : null,
        intent.dark === true ? 'switch to a dark theme' : intent.dark === false ? 'switch to a light theme' : null,
        intent.font ? `use a ${intent.font} font` : null,
        intent.radius !== undefined ? `use ${intent.radius}px corners` : null,
      ]
        .filter(Boolean)
        .join(', ');
    case 'add-section':
      return `add ${withArticle(SECTION_LABELS[intent.section])} section`;
    case 'remove-section':
      return `remove the ${SECTION_LABELS[intent.section]} section`;
    case 'add-page':
      return `add ${withArticle(intent.name)} page at #${intent.path}`;
    case 'dark-toggle':
      return 'add a dark mode toggle to the header, remembered in the browser';
    case 'favourites':
      return 'add a heart button that saves favourites, kept in the browser';
  }
}

function sentenceCase(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function filesOf(input: { files: readonly { path: string; content: string }[] }): Map<string, string> {
  return new Map(input.files.map((f) => [f.path, f.content]));
}

function firstUserMessage(history: readonly AiMessage[], prompt: string): string {
  return history.find((m) => m.role === 'user')?.content ?? prompt;
}

/**
 * The assistant used when no AI provider is configured: deterministic, no network. It reads the
 * request into an app to build (one of fifteen kinds, with name, subject, sections and theme) or
 * into edits of the current files, and answers with file operations that build.
 */
export class OfflineAiAssistant implements AiAssistant {
  readonly model = OFFLINE_MODEL;

  constructor(private readonly options: OfflineAiAssistantOptions = {}) {}

  async *plan(input: PlanInput): AsyncIterable<PlanEvent> {
    if (input.signal?.aborted) {
      yield { type: 'error', error: aiFailure('AI.ABORTED', 'The request was cancelled.') };
      return;
    }
    const files = filesOf(input);
    const fix = parseFixPrompt(input.prompt);
    if (fix !== null) {
      const repair = repairError(fix, files);
      if (repair === null) {
        const unseen = files.has(fix.file) ? '' : ` I was not given ${fix.file} to read.`;
        yield { type: 'error', error: aiFailure('AI.DECLINED', `I can’t fix “${fix.message}” (${fix.file}:${fix.line}:${fix.column}) offline.${unseen} ${REPAIR_LIMITS}`) };
        return;
      }
      yield* this.planEvents(fixPlan(fix.file, fix.line, repair));
      return;
    }
    const request = readRequest(input.prompt, files);
    // Nothing it can do: declining the plan ends a turn before any credit is charged.
    const declined = this.declineReason(request, files, input.history, input.prompt) ?? noDatabaseReason(request, input.prompt, input.database);
    if (declined !== null) {
      yield { type: 'error', error: aiFailure('AI.DECLINED', declined) };
      return;
    }
    yield* this.planEvents(this.planFor(request, input.prompt, input.database?.connected === true));
  }

  /**
   * Why a request is declined, or null: nothing it understood, or only features this app cannot
   * take (favourites outside a recipe app, a toggle without a header) — never approximated.
   */
  private declineReason(request: OfflineRequest, files: ReadonlyMap<string, string>, history: readonly AiMessage[], prompt: string): string | null {
    if (request.mode === 'unknown') {
      if (!hasAppOfItsOwn(files)) return `I’m not sure what to build. ${CAPABILITIES}`;
      const what = request.unknown.length > 0 ? `“${request.unknown.join('”, “')}”` : 'that';
      return `I’m not sure what to change. I can’t do ${what} as a change to this app offline, and I won’t replace the app to approximate it. ${EDIT_CAPABILITIES} To replace this app with a new one, say so in so many words (“start over with a new …”).`;
    }
    if (request.mode !== 'edit') return null;
    const outcomes = request.intents.map((intent) => applyEdit(new WorkingFiles(files), intent, { originalRequest: firstUserMessage(history, prompt) }));
    if (outcomes.every((o) => o.unsupported === true)) return `${outcomes.map((o) => o.summary).join(' ')} ${EDIT_CAPABILITIES}`;
    return null;
  }

  private *planEvents(plan: AiPlan): Iterable<PlanEvent> {
    for (const module of plan.modules) yield { type: 'module', module };
    for (const task of plan.tasks) yield { type: 'task', task };
    yield { type: 'usage', usage: { inputTokens: 0, outputTokens: 0 } };
    yield { type: 'done', plan };
  }

  private planFor(request: OfflineRequest, prompt: string, databaseConnected = false): AiPlan {
    if (request.mode === 'build') {
      const app = appContext(request.spec, prompt, databaseConnected);
      const module: PlannedModule = {
        id: `${TASK_PREFIX}module:app`,
        title: `Build ${request.spec.name}`,
        description: `${sentenceCase(withArticle(appWords(app)))} built with React, TypeScript and Vite${app.data ? ', its data in the project’s database through @supabase/supabase-js' : ''}.`,
      };
      const tasks: PlannedTask[] = buildStages(app).map((s) => ({ id: `${TASK_PREFIX}build:${s.stage}`, moduleId: module.id, title: s.title, description: s.description }));
      return { kind: 'build', modules: [module], tasks };
    }
    if (request.mode === 'edit') {
      const module: PlannedModule = { id: `${TASK_PREFIX}module:changes`, title: 'Change the app', description: prompt.trim() };
      const described = request.intents.map(describeIntent);
      const title = sentenceCase(described.length > 3 ? `${described.slice(0, 3).join(', ')} and more` : described.join(', '));
      return { kind: 'edit', modules: [module], tasks: [{ id: `${TASK_PREFIX}edit`, moduleId: module.id, title, description: prompt.trim() }] };
    }
    return { kind: 'edit', modules: [], tasks: [] };
  }

  async *runTask(input: TaskInput): AsyncIterable<AssistantEvent> {
    if (input.signal?.aborted) {
      yield { type: 'error', error: aiFailure('AI.ABORTED', 'The request was cancelled.') };
      return;
    }
    const current = filesOf(input);
    const fix = input.task?.id === FIX_TASK || input.task === undefined ? parseFixPrompt(input.prompt) : null;
    const errors = input.previousErrors && input.previousErrors.length > 0 ? input.previousErrors : fix !== null ? [fix] : [];
    if (errors.length > 0) {
      yield* this.repair(current, errors, input);
      return;
    }

    const stage = this.stageOf(input.task);
    // A build task of our own plan stays a build, though earlier tasks made the project non-fresh.
    const request: OfflineRequest = stage ? { mode: 'build', spec: parseAppSpec(input.prompt, seedOf(input.prompt)) } : readRequest(input.prompt, current);
    let operations: FileOperation[] = [];
    let summary: string;

    const noDatabase = noDatabaseReason(request, input.prompt, input.database);
    if (noDatabase !== null) {
      yield* this.text(noDatabase, input.signal);
      yield* this.finish();
      return;
    }
    if (request.mode === 'build') {
      const app = appContext(request.spec, input.prompt, input.database?.connected === true);
      const target = filesAtStage(app, stage ?? 'theme', current);
      yield* this.text(stage ? `${input.task?.title ?? 'Working'} for ${request.spec.name}…` : `Building ${request.spec.name}, ${withArticle(appWords(app))}…`, input.signal);
      operations = operationsForFiles(current, target, input.needFullFile);
      // The client library comes with the step that writes the code importing it.
      if (stage === null || stage === 'core') operations.push(...dataDependencies(app, current));
      summary = operations.length === 0 ? 'Everything for this step was already in place.' : `Wrote ${describeOperations(operations)}.`;
    } else if (request.mode === 'edit') {
      const working = new WorkingFiles(current);
      const outcomes = request.intents.map((intent) => applyEdit(working, intent, { originalRequest: firstUserMessage(input.history, input.prompt) }));
      operations = operationsForFiles(current, working.targets(), input.needFullFile);
      const notes = outcomes.map((o) => o.summary);
      if (request.unknown.length > 0) notes.push(`I did not understand: “${request.unknown.join('”, “')}”.`);
      yield* this.text(`Making ${request.intents.length === 1 ? 'the change' : `${request.intents.length} changes`}…`, input.signal);
      summary = notes.join(' ');
    } else {
      yield* this.text(this.declineReason(request, current, input.history, input.prompt) ?? `I’m not sure what to change. ${CAPABILITIES}`, input.signal);
      yield* this.finish();
      return;
    }

    operations = selfChecked(current, operations);
    for (const operation of operations) {
      if (input.signal?.aborted) {
        yield { type: 'error', error: aiFailure('AI.ABORTED', 'The request was cancelled.') };
        return;
      }
      yield { type: 'operation', operation };
    }
    yield* this.text(`\n\n${summary}`, input.signal);
    yield* this.finish();
  }

  /** Repairs the errors it can (one after another, on the files as repaired so far), or says honestly that it cannot. */
  private async *repair(current: ReadonlyMap<string, string>, errors: readonly CodeError[], input: TaskInput): AsyncIterable<AssistantEvent> {
    const working = new Map(current);
    const done: string[] = [];
    for (const error of errors.slice(0, 10)) {
      const repair = repairError(error, working);
      if (repair === null) continue;
      working.set(repair.path, repair.content);
      done.push(repair.summary);
    }
    if (done.length === 0) {
      const listed = errors
        .slice(0, 3)
        .map((e) => `${e.file}:${e.line}:${e.column} ${e.message}`)
        .join('; ');
      yield* this.text(`I can’t fix this offline (${listed}). ${REPAIR_LIMITS} Configure an AI provider, or undo the last change from the history.`, input.signal);
      yield* this.finish();
      return;
    }
    const targets = new Map<string, string | undefined>([...working].filter(([path, content]) => current.get(path) !== content));
    yield* this.text(`Fixing ${done.length === 1 ? 'the error' : `${done.length} errors`}…`, input.signal);
    for (const operation of selfChecked(current, operationsForFiles(current, targets, input.needFullFile))) yield { type: 'operation', operation };
    const left = errors.length - done.length;
    yield* this.text(`\n\n${done.join(' ')}${left > 0 ? ` ${left} other error${left === 1 ? '' : 's'} I can’t fix offline. ${REPAIR_LIMITS}` : ''}`, input.signal);
    yield* this.finish();
  }

  private stageOf(task: PlannedTask | undefined): BuildStage | null {
    const stage = task?.id.startsWith(`${TASK_PREFIX}build:`) ? task.id.slice(`${TASK_PREFIX}build:`.length) : null;
    return stage !== null && (STAGES as readonly string[]).includes(stage) ? (stage as BuildStage) : null;
  }

  private async *finish(): AsyncIterable<AssistantEvent> {
    yield { type: 'usage', usage: { inputTokens: 0, outputTokens: 0 } };
    yield { type: 'done', finishReason: 'stop' };
  }

  /** Streams text a few words at a time, as a model would. */
  private async *text(text: string, signal: AbortSignalLike | undefined): AsyncIterable<{ type: 'text'; text: string }> {
    const pieces = text.match(/\S+\s*|\s+/g) ?? [text];
    for (let i = 0; i < pieces.length; i += 4) {
      if (signal?.aborted) return;
      if (this.options.chunkDelayMs) await new Promise((resolve) => setTimeout(resolve, this.options.chunkDelayMs));
      yield { type: 'text', text: pieces.slice(i, i + 4).join('') };
    }
  }

  /**
   * Answers from what it knows, without a model: its abilities when asked, the plan it would make
   * for a request to build or change an app, and otherwise that it cannot converse. Only the last
   * person's message is read; `temperature` and `maxTokens` do not apply. A json response format
   * answers `{"answer": "<the text>"}`.
   */
  async *complete(input: CompletionInput): AsyncIterable<CompletionEvent> {
    if (input.signal?.aborted) {
      yield { type: 'error', error: aiFailure('AI.ABORTED', 'The request was cancelled.') };
      return;
    }
    const answer = this.answer([...input.messages].reverse().find((m) => m.role === 'user')?.content ?? '');
    const text = input.responseFormat === 'json' ? JSON.stringify({ answer }) : answer;
    for await (const event of this.text(text, input.signal)) yield event;
    if (input.signal?.aborted) {
      yield { type: 'error', error: aiFailure('AI.ABORTED', 'The request was cancelled.') };
      return;
    }
    yield { type: 'usage', usage: { inputTokens: 0, outputTokens: 0 } };
    yield { type: 'done', finishReason: 'stop' };
  }

  private answer(question: string): string {
    if (question.trim() === '' || ABOUT_ABILITIES.test(question)) return OFFLINE_CAPABILITIES_ANSWER;
    // Reads the request as for an app that already exists, so that only a real request to build is a build.
    const request = GENERAL_QUESTION.test(question) ? null : readIdea(question, new Map([['src/site.ts', '']]));
    if (request?.mode === 'build') {
      const plan = this.planFor(request, question);
      return [
        `I would build ${request.spec.name}, ${withArticle(kindWords(request.spec.kind))}, in ${plan.tasks.length} steps:`,
        ...plan.tasks.map((t, i) => `${i + 1}. ${t.title}: ${t.description}`),
        'Send it as a prompt in the builder to make it.',
      ].join('\n');
    }
    if (request?.mode === 'edit') {
      const changes = request.intents.map(describeIntent);
      return [
        `In the current app I would ${changes.join('; ')}.`,
        request.unknown.length > 0 ? `I would not understand: “${request.unknown.join('”, “')}”.` : null,
        'Send it as a prompt in the builder to make the change.',
      ]
        .filter((line): line is string => line !== null)
        .join('\n');
    }
    return LIMITED_CONVERSATION;
  }

  async summarize(messages: readonly AiMessage[], options: SummarizeOptions = {}): Promise<string> {
    const firstSentence = (text: string, max: number) => {
      const sentence = text.trim().split(/(?<=[.!?])\s+/)[0] ?? '';
      return sentence.length > max ? `${sentence.slice(0, max - 1)}…` : sentence;
    };
    const asks = messages.filter((m) => m.role === 'user').map((m) => firstSentence(m.content, 140));
    const lastReply = [...messages].reverse().find((m) => m.role === 'assistant');
    const lines: string[] = [];
    if (options.instruction) lines.push(`Focus: ${options.instruction.trim()}`);
    if (asks.length > 0) lines.push(`First request: ${asks[0]}`);
    const later = asks.slice(1);
    if (later.length > 0) {
      const shown = later.slice(-8);
      lines.push(`Later requests${later.length > shown.length ? ` (last ${shown.length} of ${later.length})` : ''}:`, ...shown.map((a) => `- ${a}`));
    }
    if (lastReply) lines.push(`Last reply: ${firstSentence(lastReply.content, 200)}`);
    return lines.length > 0 ? lines.join('\n') : 'Nothing has been discussed yet.';
  }

  /**
   * Rewrites the person's request more completely, keeping its intent: a request to change an app
   * stays a change of the current app (its clauses kept, the ones it cannot read quoted as
   * written); an idea for an app names only the kind and name the prompt itself names — never a
   * default name or another kind. Without project context, it never assumes a different app.
   */
  async enhancePrompt(prompt: string, templateId?: string): Promise<string> {
    const start = templateId ? `Start from the “${templateId}” template. ` : '';
    const quality = 'Make it responsive (375 px phones to 1280 px desktops) and accessible (labels, focus states, good contrast), and use specific, real copy instead of placeholder text.';
    const asked = prompt.trim().replace(/\s+/g, ' ');
    const idea = describesAnApp(prompt) && guessKind(prompt).strength >= 2 ? readIdea(prompt, new Map()) : null;
    const edits = parseEdits(prompt);
    const request: OfflineRequest | null = idea?.mode === 'build' ? idea : edits.intents.length > 0 ? { mode: 'edit', ...edits } : null;
    if (request?.mode === 'edit') {
      const rest = request.unknown.length > 0 ? ` Also: ${request.unknown.map((u) => `“${u}”`).join(', ')}.` : '';
      return `${start}In the current app, ${request.intents.map(describeIntent).join('; ')}.${rest} Keep everything else as it is.`;
    }
    if (request?.mode === 'build') {
      const { spec } = request;
      const app = appContext(spec, prompt);
      const named = spec.name !== DEFAULT_NAMES[spec.kind];
      const sections = [...new Set([...app.blueprint.coreSections, ...spec.sections])].map((s) => SECTION_LABELS[s]);
      const theme = [
        spec.theme.primary !== '#4f46e5' ? `${spec.theme.primary} as the primary colour` : null,
        spec.theme.dark ? 'a dark theme' : null,
        spec.theme.font !== 'sans' ? `a ${spec.theme.font} font` : null,
      ].filter(Boolean);
      return [
        `${start}Build ${withArticle(kindWords(spec.kind))}${named ? ` called “${spec.name}”` : ''}${spec.subject ? ` for ${spec.subject}` : ''}.`,
        `As asked: “${asked}”.`,
        `Main feature: ${app.blueprint.coreTask.description}`,
        sections.length > 0 ? `Sections: ${sections.join(', ')}.` : null,
        theme.length > 0 ? `Use ${theme.join(' and ')}.` : null,
        quality,
      ]
        .filter(Boolean)
        .join(' ');
    }
    const sentence = /[.!?]$/.test(asked) ? asked : `${asked}.`;
    return `${start}${sentenceCase(sentence)} Keep everything else as it is, and keep the app’s name, look and pages. ${quality}`;
  }
}

function describeOperations(operations: readonly FileOperation[]): string {
  const writes = operations.filter((o) => o.type === 'write_file').length;
  const edits = operations.filter((o) => o.type === 'edit_file').length;
  const deletes = operations.filter((o) => o.type === 'delete_file').length;
  const parts = [writes ? `${writes} file${writes === 1 ? '' : 's'}` : null, edits ? `${edits} edit${edits === 1 ? '' : 's'}` : null, deletes ? `${deletes} deletion${deletes === 1 ? '' : 's'}` : null].filter(Boolean);
  return parts.join(', ') || 'nothing';
}

/**
 * The operations must be valid and apply to the files they were made from; if edits would not
 * (a bug), every touched file is sent whole instead.
 */
function selfChecked(current: ReadonlyMap<string, string>, operations: FileOperation[]): FileOperation[] {
  const valid = operations.every((o) => validateOperation(o).ok);
  const applied = valid ? applyOperations(current, operations) : null;
  if (applied?.ok) return operations;
  const target = new Map<string, string | undefined>();
  let files = new Map(current);
  for (const operation of operations) {
    const one = applyOperations(files, [operation]);
    if (!one.ok) continue;
    files = new Map(one.value.files);
  }
  for (const operation of operations) {
    const path = 'path' in operation ? operation.path : null;
    if (path !== null) target.set(path, files.get(path));
  }
  return operationsForFiles(current, target, undefined).map((o) => (o.type === 'edit_file' ? { type: 'write_file', path: o.path, content: files.get(o.path) ?? '' } : o));
}
