import { type CodeError, type ErrorScan, MAX_TURN_MESSAGE_LENGTH, REPLACES_APP_WARNING, type SelectedElement, appendAttachments, appendSelectedElement } from '@kiln/domain';
import { inject, injectable, optional } from 'inversify';
import { type IReactionDisposer, makeAutoObservable, reaction, runInAction } from 'mobx';
import { ApiError, type ChatPreferencesStore, type SavedPrompts, type Timers, type Toasts, TYPES } from '../../../app/ports';
import { errorText } from '../../../app/error-text';
import { type Ids, type Logger, UI_TYPES } from '../../../app/ui-ports';
import { type AiApi, LimitReachedError, type TurnHistoryDto } from '../../../api/ai.api';
import type { TurnEvent } from '../../../api/turn-stream';
import type { UsageApi } from '../../../api/usage.api';
import { UpgradeDialogStore } from '../../billing/upgrade-dialog.store';
import { AiStatusStore } from './ai-status.store';
import {
  type AssistantMessage,
  type ChatMessage,
  type UserMessage,
  fixErrorMessage,
  messagesFromHistory,
  newAssistantMessage,
  planCost,
  userMessage,
} from './chat-messages';
import { CREDITS_PER_TASK, CreditsStore, creditsWord } from './credits.store';
import { ErrorRecordsStore } from './error-records.store';
import { applyTurnEvent } from './turn-event-reducer';
import { followTurn, isUnderWay } from './turn-follower';
import { PendingFilesStore, type SentAttachment } from './pending-files.store';

/** docs/ai-api.md: a message is 1..20000 characters (the domain's rule, also the API's). */
export const MAX_MESSAGE_LENGTH = MAX_TURN_MESSAGE_LENGTH;

export const CONNECTION_LOST =
  'The connection to the assistant was lost before the turn finished. Your project may still change: reload the page to see the result.';
export const ENHANCE_FAILED_TOAST = { title: 'Could not enhance the prompt', description: 'Please try again in a moment.', variant: 'error' } as const;

/** What the chat needs from the builder screen (BuilderVm implements it). */
export interface ChatHost {
  /** The sandbox is up: turns can run. */
  readonly ready: boolean;
  /** The Problems panel's latest scan. */
  readonly errorScan: ErrorScan | null;
  /** A turn's find-errors result becomes the Problems panel's scan. */
  showScan(scan: ErrorScan): void;
  /** A turn was kept or reverted: tree, open files, versions and preview show the project as it is. */
  afterTurn(): Promise<void>;
  /** Opens the Versions tab. */
  showVersions(): void;
  /** The element picked in the preview (SPEC §3 builder state), shown in the composer. */
  readonly selectedElement: SelectedElement | null;
  /** The selection for the message being sent, cleared. */
  takeSelectedElement(): SelectedElement | null;
  clearSelectedElement(): void;
}

export interface QueuedMessage {
  readonly id: string;
  readonly text: string;
  /** Sent as the turn's idempotency key: one message is one turn, charged once. */
  readonly key: string;
  /** Overrides the auto-run switch (the first build from a saved idea runs at once). */
  readonly autoRun?: boolean;
  /** Error records the message asks to fix. */
  readonly fixing: readonly string[];
  /** Files attached to it (issue 18): their ids go with it, their lines show under it. */
  readonly attachments?: readonly SentAttachment[];
}

type HistoryState = 'idle' | 'loading' | 'ready' | 'failed';


/**
 * The builder's chat (SPEC §2 tab1, §3 message queue, §4 AI phase): the conversation with the
 * assistant over docs/ai-api.md turns. Messages typed while a turn runs (or while a plan waits
 * for approval) are queued and sent in order. Each reply streams its text, plan, task progress,
 * checks and outcome; a plan of several tasks waits for Run plan unless auto-run is on. A 402
 * opens the upgrade dialog for 'credit'. A kept or reverted turn refreshes the builder.
 *
 * One instance per mounted builder: `start(projectId, host)` when it opens, `dispose()` when
 * it closes (a stream under way is aborted and its late events ignored).
 */
@injectable()
export class ChatVm {
  projectId = '';
  messages: ChatMessage[] = [];
  history: HistoryState = 'idle';
  input = '';
  queue: QueuedMessage[] = [];
  /** A limit refused the last message: the queue waits for the next send. */
  paused = false;
  /** The reply being streamed, or null. */
  runningId: string | null = null;
  enhancing = false;
  cancelling = false;
  /** Stop was pressed and the server has not answered yet. */
  stopping = false;
  autoRun: boolean;
  problemsOpen = false;

  readonly status: AiStatusStore;
  readonly credits: CreditsStore;
  readonly errorRecords: ErrorRecordsStore;

  private host: ChatHost | null = null;
  private generation = 0;
  private controller: AbortController | null = null;
  private disposers: IReactionDisposer[] = [];
  /** The reply of a turn under way when the chat opened (after a reload), followed by polling. */
  private following: { readonly replyId: string; readonly stop: () => void } | null = null;

  constructor(
    @inject(TYPES.AiApi) private readonly ai: AiApi,
    @inject(TYPES.UsageApi) usage: UsageApi,
    @inject(UpgradeDialogStore) private readonly upgrade: Pick<UpgradeDialogStore, 'openFor'>,
    @inject(TYPES.SavedPrompts) private readonly savedPrompts: SavedPrompts,
    @inject(TYPES.ChatPreferences) private readonly preferences: ChatPreferencesStore,
    @inject(TYPES.Timers) private readonly timers: Timers,
    @inject(TYPES.Toasts) private readonly toasts: Toasts,
    @inject(UI_TYPES.Ids) private readonly ids: Ids,
    @inject(UI_TYPES.Logger) private readonly logger: Logger,
    /** SPEC §3 project store "pending files": the composer's attached files, per project. */
    @inject(PendingFilesStore) @optional() readonly pendingFiles: PendingFilesStore | null = null,
  ) {
    this.status = new AiStatusStore(timers);
    this.credits = new CreditsStore(usage, logger);
    this.errorRecords = new ErrorRecordsStore(ids, timers);
    this.autoRun = preferences.load().autoRun;
    makeAutoObservable<
      ChatVm,
      'ai' | 'upgrade' | 'savedPrompts' | 'preferences' | 'toasts' | 'ids' | 'logger' | 'host' | 'generation' | 'controller' | 'disposers' | 'timers' | 'following'
    >(
      this,
      {
        ai: false,
        upgrade: false,
        savedPrompts: false,
        preferences: false,
        toasts: false,
        ids: false,
        logger: false,
        host: false,
        generation: false,
        controller: false,
        disposers: false,
        timers: false,
        following: false,
        status: false,
        credits: false,
        errorRecords: false,
        pendingFiles: false,
      },
      { autoBind: true },
    );
  }

  // ── Life cycle ───────────────────────────────────────────────────────────────────────────

  /** The builder opened `projectId`: load the history and the credits, follow the scans. */
  async start(projectId: string, host: ChatHost): Promise<void> {
    this.dispose();
    const generation = this.generation;
    this.host = host;
    this.projectId = projectId;
    this.messages = [];
    this.queue = [];
    this.paused = false;
    this.history = 'loading';
    this.errorRecords.clear();
    this.disposers.push(
      reaction(
        () => host.errorScan,
        (scan) => {
          if (scan !== null) this.errorRecords.sync(scan);
        },
        { fireImmediately: true },
      ),
      reaction(
        () => host.ready,
        () => this.pump(),
      ),
    );
    void this.credits.load();
    await this.loadHistory(generation);
  }

  /** The builder closed: the stream under way stops, the dots stop, late answers are ignored. */
  dispose(): void {
    this.generation += 1;
    this.controller?.abort();
    this.controller = null;
    for (const dispose of this.disposers) dispose();
    this.disposers = [];
    this.following?.stop();
    this.following = null;
    this.runningId = null;
    this.stopping = false;
    this.status.dispose();
  }

  private async loadHistory(generation: number): Promise<void> {
    const projectId = this.projectId;
    try {
      const turns = await this.ai.history(projectId);
      runInAction(() => {
        if (generation !== this.generation) return;
        // Messages sent meanwhile stay after the history.
        this.messages = [...messagesFromHistory(turns), ...this.messages];
        this.history = 'ready';
        const underWay = turns.at(-1);
        if (underWay !== undefined && isUnderWay(underWay.status)) this.follow(underWay.id, generation);
        if (turns.length === 0) this.sendSavedPrompt(projectId);
      });
    } catch (error) {
      this.logger.warn('Loading the chat history failed', error);
      runInAction(() => {
        if (generation !== this.generation) return;
        this.history = 'failed';
        // Not knowing whether the idea was built yet, offer it instead of sending it.
        const saved = this.savedPrompts.get(projectId);
        if (saved !== null && this.input === '') this.input = saved;
      });
    }
    if (generation === this.generation) this.pump();
  }

  /**
   * A project opened for the first time from the landing page's idea: the idea is its first
   * message, built at once (auto-run), and forgotten so that it is sent once only.
   */
  private sendSavedPrompt(projectId: string): void {
    const saved = this.savedPrompts.get(projectId);
    if (saved === null) return;
    this.savedPrompts.remove(projectId);
    this.enqueue(saved, { autoRun: true, first: true });
  }

  // ── Composer ─────────────────────────────────────────────────────────────────────────────

  setInput(text: string): void {
    this.input = text;
  }

  get canSend(): boolean {
    const text = this.input.trim();
    const filesReady = this.pendingFiles?.readyToSend(this.projectId) ?? true;
    return text !== '' && appendSelectedElement(text, this.selectedElement).length <= MAX_MESSAGE_LENGTH && this.projectId !== '' && !this.enhancing && filesReady;
  }

  /** The element picked in the preview: the next message is about it. */
  get selectedElement(): SelectedElement | null {
    return this.host?.selectedElement ?? null;
  }

  clearSelectedElement(): void {
    this.host?.clearSelectedElement();
  }

  /** A turn is streaming or a plan waits for approval: new messages wait in the queue. */
  get busy(): boolean {
    return this.runningId !== null || this.pendingPlan !== null;
  }

  /** The reply whose plan waits for Run plan / Cancel plan. */
  get pendingPlan(): AssistantMessage | null {
    for (let i = this.messages.length - 1; i >= 0; i -= 1) {
      const message = this.messages[i] as ChatMessage;
      if (message.kind === 'assistant' && message.status === 'awaiting') return message;
    }
    return null;
  }

  /**
   * The one credit line under the composer. While a plan waits for Run plan it is the plan's
   * cost, the same number as the plan card ('This plan uses 3 credits'); otherwise what sending
   * uses: 'This message uses 1 credit' (with auto-run, one per task).
   */
  get costText(): string {
    const waiting = this.pendingPlan;
    if (waiting !== null && waiting.plan !== null) {
      const cost = planCost(waiting);
      return `This plan uses ${cost} ${creditsWord(cost)}`;
    }
    return this.autoRun ? `This message uses ${CREDITS_PER_TASK} ${creditsWord(CREDITS_PER_TASK)} per task` : `This message uses ${CREDITS_PER_TASK} ${creditsWord(CREDITS_PER_TASK)}`;
  }

  /** Sends the composer's text now, or queues it behind the turn under way. */
  send(): void {
    if (!this.canSend) return;
    const text = this.input.trim();
    this.input = '';
    // The picked element travels as the message's last line, for every assistant to read.
    this.enqueue(appendSelectedElement(text, this.host?.takeSelectedElement() ?? null), { attachments: this.pendingFiles?.take(this.projectId) ?? [] });
  }

  removeQueued(id: string): void {
    this.queue = this.queue.filter((item) => item.id !== id);
  }

  toggleAutoRun(): void {
    this.autoRun = !this.autoRun;
    this.preferences.save({ autoRun: this.autoRun });
  }

  /** Rewrites the composer's text as a clearer, more complete prompt. */
  async enhance(): Promise<void> {
    const prompt = this.input.trim();
    if (prompt === '' || this.enhancing) return;
    this.enhancing = true;
    const generation = this.generation;
    try {
      const better = await this.ai.enhancePrompt(prompt);
      runInAction(() => {
        if (generation === this.generation && better.trim() !== '') this.input = better;
      });
    } catch (error) {
      this.logger.warn('Prompt enhancement failed', error);
      // Over the AI rate limit the server says how long to wait; anything else is a generic retry hint.
      const limited = error instanceof ApiError && error.status === 429;
      // Over the limit, trying again at once would only be refused again: no button then.
      if (generation === this.generation) {
        this.toasts.show(limited ? { ...ENHANCE_FAILED_TOAST, description: error.message } : { ...ENHANCE_FAILED_TOAST, action: { label: 'Try again', run: () => void this.enhance() } });
      }
    } finally {
      runInAction(() => (this.enhancing = false));
    }
  }

  setProblemsOpen(open: boolean): void {
    this.problemsOpen = open;
  }

  // ── Fix with AI ──────────────────────────────────────────────────────────────────────────

  /** Asks the assistant to fix an error of the Problems panel; its record is being solved. */
  fixError(error: CodeError): void {
    if (this.errorRecords.isSolving(error)) return;
    const key = this.errorRecords.markSolving(error);
    this.enqueue(fixErrorMessage(error), { fixing: [key] });
  }

  isSolving(error: CodeError): boolean {
    return this.errorRecords.isSolving(error);
  }

  // ── Plans ────────────────────────────────────────────────────────────────────────────────

  /** Run plan: the waiting plan runs (its cost is charged task by task). */
  async acceptPlan(): Promise<void> {
    const reply = this.pendingPlan;
    if (reply === null || reply.turnId === null || this.runningId !== null) return;
    const generation = this.generation;
    const turnId = reply.turnId;
    reply.status = 'running';
    reply.planError = null;
    this.runningId = reply.id;
    this.status.setPhase('building');
    const controller = new AbortController();
    this.controller = controller;
    let events: AsyncIterable<TurnEvent>;
    try {
      events = await this.ai.accept(this.projectId, turnId, controller.signal);
    } catch (error) {
      if (generation !== this.generation) return;
      runInAction(() => {
        reply.status = 'awaiting';
        reply.planError = error instanceof LimitReachedError ? 'You have no credits left to run this plan.' : errorText(error);
        this.runningId = null;
        this.controller = null;
        this.status.setPhase('idle');
      });
      this.upgrade.openFor(error, 'credit');
      return;
    }
    await this.consume(events, reply.id, generation, controller);
  }

  /** Cancel plan: the waiting plan is dropped, nothing is charged. */
  async cancelPlan(): Promise<void> {
    const reply = this.pendingPlan;
    if (reply === null || reply.turnId === null || this.cancelling) return;
    const generation = this.generation;
    this.cancelling = true;
    try {
      await this.ai.cancel(this.projectId, reply.turnId);
      runInAction(() => {
        if (generation !== this.generation) return;
        reply.status = 'cancelled';
        reply.awaitingCost = null;
        reply.tasks = [];
        this.errorRecords.stopSolving(reply.fixing);
      });
    } catch (error) {
      if (generation === this.generation) runInAction(() => (reply.planError = errorText(error)));
    } finally {
      runInAction(() => (this.cancelling = false));
    }
    if (generation === this.generation) this.pump();
  }

  /** The reply's commit in the Versions tab. */
  showVersions(): void {
    this.host?.showVersions();
  }

  /** A plan that replaces the app asks before it runs (issue #14): its warning, or null. */
  get planWarning(): string | null {
    return this.pendingPlan?.plan?.replaces_app === true ? REPLACES_APP_WARNING : null;
  }

  get acceptLabel(): string {
    return this.planWarning !== null ? 'Replace my app' : 'Run plan';
  }

  // ── Stop ─────────────────────────────────────────────────────────────────────────────────

  /** The reply under way, once the server has named its turn (before that there is nothing to stop). */
  get canStop(): boolean {
    const reply = this.runningId === null ? undefined : this.reply(this.runningId);
    return reply !== undefined && reply.turnId !== null && !this.stopping;
  }

  /**
   * Stop: the server undoes the turn and refunds its unfinished tasks. A streamed reply ends with
   * the stream's done; a followed one (after a reload) with the turn the server answers.
   */
  async stop(): Promise<void> {
    const replyId = this.runningId;
    const reply = replyId === null ? undefined : this.reply(replyId);
    if (replyId === null || reply === undefined || reply.turnId === null || this.stopping) return;
    const generation = this.generation;
    this.stopping = true;
    try {
      const turn = await this.ai.stop(this.projectId, reply.turnId);
      if (generation === this.generation && this.following?.replyId === replyId && !isUnderWay(turn.status)) this.settleFollowed(turn);
    } catch (error) {
      this.logger.warn('Stopping the turn failed', error);
      if (generation === this.generation) this.toasts.show({ title: 'Could not stop', description: errorText(error), variant: 'error' });
    } finally {
      runInAction(() => (this.stopping = false));
    }
  }

  // ── A turn under way when the chat opened ────────────────────────────────────────────────

  /** Shows the last reply as running and reads the turn list until the turn has ended. */
  private follow(turnId: string, generation: number): void {
    const reply = this.messages.at(-1);
    if (reply === undefined || reply.kind !== 'assistant') return;
    reply.status = 'running';
    reply.outcome = '';
    this.runningId = reply.id;
    this.status.setPhase('building');
    const stop = followTurn({ ai: this.ai, timers: this.timers, logger: this.logger }, this.projectId, turnId, (turn) => {
      if (generation === this.generation) this.settleFollowed(turn);
    });
    this.following = { replyId: reply.id, stop };
  }

  /** The followed turn ended (null: it was forgotten, its first credit refused). */
  private settleFollowed(turn: TurnHistoryDto | null): void {
    const following = this.following;
    if (following === null) return;
    following.stop();
    this.following = null;
    const reply = this.reply(following.replyId);
    if (reply !== undefined) {
      const ended = turn === null ? undefined : messagesFromHistory([turn]).find((m): m is AssistantMessage => m.kind === 'assistant');
      if (ended === undefined) {
        reply.status = 'failed';
        reply.outcome = 'This message was not run.';
      } else {
        Object.assign(reply, { ...ended, id: reply.id, fixing: reply.fixing });
      }
    }
    this.finish(following.replyId, true);
  }

  // ── Turns ────────────────────────────────────────────────────────────────────────────────

  private enqueue(text: string, options: { autoRun?: boolean; fixing?: readonly string[]; first?: boolean; attachments?: readonly SentAttachment[] } = {}): void {
    const item: QueuedMessage = { id: this.ids.next(), key: this.ids.next(), text, autoRun: options.autoRun, fixing: options.fixing ?? [], attachments: options.attachments ?? [] };
    if (options.first) this.queue.unshift(item);
    else this.queue.push(item);
    this.paused = false;
    this.pump();
  }

  /** Starts the next queued message when nothing runs, the history is loaded and the sandbox is up. */
  private pump(): void {
    if (this.busy || this.paused || this.queue.length === 0) return;
    if (this.history === 'loading' || this.history === 'idle' || this.host === null || !this.host.ready) return;
    const next = this.queue.shift() as QueuedMessage;
    void this.runTurn(next);
  }

  private async runTurn(item: QueuedMessage): Promise<void> {
    const generation = this.generation;
    // The server adds a line per attached file, as here: the message shows them at once.
    const user: UserMessage = userMessage(item.id, appendAttachments(item.text, item.attachments ?? []));
    const replyId = `${item.id}:reply`;
    this.messages.push(user, newAssistantMessage(replyId, item.fixing));
    this.runningId = replyId;
    this.status.setPhase('thinking');
    const controller = new AbortController();
    this.controller = controller;
    let events: AsyncIterable<TurnEvent>;
    try {
      events = await this.ai.turn(this.projectId, { message: item.text, idempotencyKey: item.key, autoRun: item.autoRun ?? this.autoRun, attachmentIds: (item.attachments ?? []).map((a) => a.id) }, controller.signal);
    } catch (error) {
      if (generation !== this.generation) return;
      this.refused(item, replyId, error);
      return;
    }
    await this.consume(events, replyId, generation, controller);
  }

  /** The turn did not start: a limit (the upgrade dialog opens, the queue waits) or a failure. */
  private refused(item: QueuedMessage, replyId: string, error: unknown): void {
    const limited = error instanceof LimitReachedError;
    runInAction(() => {
      const user = this.messages.find((m): m is UserMessage => m.kind === 'user' && m.id === item.id);
      const reply = this.reply(replyId);
      if (limited) {
        if (user) user.state = 'refused';
        this.messages = this.messages.filter((m) => m.id !== replyId);
        this.paused = true;
        if (this.input.trim() === '') this.input = item.text;
      } else if (reply) {
        reply.status = 'failed';
        reply.outcome = errorText(error);
      }
      this.errorRecords.stopSolving(item.fixing);
      this.runningId = null;
      this.controller = null;
      this.status.setPhase('idle');
    });
    if (limited) this.upgrade.openFor(error, 'credit');
    else this.logger.warn('The turn could not start', error);
    this.pump();
  }

  private async consume(events: AsyncIterable<TurnEvent>, replyId: string, generation: number, controller: AbortController): Promise<void> {
    let ended = false;
    try {
      for await (const event of events) {
        if (generation !== this.generation) return;
        this.apply(replyId, event);
        if (event.type === 'done' || event.type === 'error' || event.type === 'awaiting_approval') ended = true;
      }
    } catch (error) {
      if (generation !== this.generation || controller.signal.aborted) return;
      this.logger.warn('The turn stream broke', error);
    }
    if (generation !== this.generation) return;
    this.finish(replyId, ended);
  }

  /** One event of the reply `replyId`. */
  apply(replyId: string, event: TurnEvent): void {
    const reply = this.reply(replyId);
    if (reply === undefined) return;
    applyTurnEvent(reply, event, {
      phase: (phase) => this.status.setPhase(phase),
      scan: (scan) => this.host?.showScan(scan),
      credits: (remaining) => this.credits.set(remaining),
    });
  }

  /** The stream ended: the status line goes idle, the builder refreshes, the queue moves on. */
  private finish(replyId: string, ended: boolean): void {
    const reply = this.reply(replyId);
    if (reply !== undefined) {
      if (!ended && reply.status === 'running') {
        reply.status = 'failed';
        reply.outcome = CONNECTION_LOST;
      }
      reply.checkingRound = null;
      for (const task of reply.tasks) if (task.state === 'running' && reply.status !== 'awaiting') task.state = 'failed';
      if (reply.status !== 'awaiting') this.errorRecords.stopSolving(reply.fixing);
    }
    this.runningId = null;
    this.controller = null;
    this.status.setPhase('idle');
    const changed = reply !== undefined && (reply.status === 'kept' || reply.status === 'reverted' || (!ended && reply.status === 'failed'));
    if (changed) void this.host?.afterTurn();
    this.pump();
  }

  private reply(id: string): AssistantMessage | undefined {
    return this.messages.find((m): m is AssistantMessage => m.kind === 'assistant' && m.id === id);
  }
}
