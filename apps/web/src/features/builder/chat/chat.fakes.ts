// Test doubles for the chat: an AiApi whose turn streams the test drives event by event, and a
// builder host that records what the chat asked of it.
import type { ErrorScan, SelectedElement } from '@kiln/domain';
import { makeAutoObservable } from 'mobx';
import type { ChatPreferences, ChatPreferencesStore } from '../../../app/ports';
import type { AiApi, AiModelDto, TurnHistoryDto, TurnInput } from '../../../api/ai.api';
import type { TurnEvent } from '../../../api/turn-stream';
import type { ChatHost } from './chat.vm';

/** A turn's event stream the test writes into: `emit` events, then `end` (or `fail`). */
export class ScriptedStream implements AsyncIterable<TurnEvent> {
  private readonly buffered: TurnEvent[] = [];
  private ended = false;
  private failure: unknown = null;
  private wake: (() => void) | null = null;

  emit(...events: TurnEvent[]): void {
    this.buffered.push(...events);
    this.notify();
  }

  end(): void {
    this.ended = true;
    this.notify();
  }

  fail(error: unknown): void {
    this.failure = error;
    this.notify();
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<TurnEvent> {
    for (;;) {
      if (this.failure !== null) throw this.failure;
      const next = this.buffered.shift();
      if (next !== undefined) {
        yield next;
        continue;
      }
      if (this.ended) return;
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }
}

type Reply<T> = T | Error;

/** Records every call. `turn` and `accept` hand out a new ScriptedStream each (in `streams`). */
export class FakeAiApi implements AiApi {
  readonly turns: { projectId: string; input: TurnInput; signal?: AbortSignal }[] = [];
  readonly accepted: string[] = [];
  readonly cancelled: string[] = [];
  readonly stopped: string[] = [];
  /** What stop answers (the turn as it ended). */
  stopReply: Reply<TurnHistoryDto> | null = null;
  readonly enhanced: string[] = [];
  readonly streams: ScriptedStream[] = [];
  historyReply: Reply<readonly TurnHistoryDto[]> = [];
  historyCalls = 0;
  /** Thrown by the next turn (then cleared). */
  refuseNextTurn: Error | null = null;
  refuseNextAccept: Error | null = null;
  cancelReply: Reply<void> = undefined;
  enhanceReply: Reply<string> = 'A clear, complete prompt';

  async turn(projectId: string, input: TurnInput, signal?: AbortSignal): Promise<AsyncIterable<TurnEvent>> {
    this.turns.push({ projectId, input, signal });
    const refusal = this.refuseNextTurn;
    this.refuseNextTurn = null;
    if (refusal) throw refusal;
    return this.stream(signal);
  }

  async accept(_projectId: string, turnId: string, signal?: AbortSignal): Promise<AsyncIterable<TurnEvent>> {
    this.accepted.push(turnId);
    const refusal = this.refuseNextAccept;
    this.refuseNextAccept = null;
    if (refusal) throw refusal;
    return this.stream(signal);
  }

  async cancel(_projectId: string, turnId: string): Promise<void> {
    this.cancelled.push(turnId);
    if (this.cancelReply instanceof Error) throw this.cancelReply;
  }

  async stop(_projectId: string, turnId: string): Promise<TurnHistoryDto> {
    this.stopped.push(turnId);
    if (this.stopReply instanceof Error) throw this.stopReply;
    return this.stopReply ?? { id: turnId, message: '', status: 'reverted', reply: '', outcome: 'Stopped.', plan: null, created_at: '', commit_hash: null };
  }

  async history(): Promise<readonly TurnHistoryDto[]> {
    this.historyCalls += 1;
    if (this.historyReply instanceof Error) throw this.historyReply;
    return this.historyReply;
  }

  async enhancePrompt(prompt: string): Promise<string> {
    this.enhanced.push(prompt);
    if (this.enhanceReply instanceof Error) throw this.enhanceReply;
    return this.enhanceReply;
  }

  async model(): Promise<AiModelDto> {
    return { provider: 'offline', id: 'kiln-offline-1', offline: true };
  }

  /** The stream of the latest turn or accept. */
  get last(): ScriptedStream {
    const stream = this.streams.at(-1);
    if (!stream) throw new Error('no turn has started');
    return stream;
  }

  private stream(signal?: AbortSignal): ScriptedStream {
    const stream = new ScriptedStream();
    signal?.addEventListener('abort', () => stream.fail(Object.assign(new Error('aborted'), { name: 'AbortError' })));
    this.streams.push(stream);
    return stream;
  }
}

/** The builder as the chat sees it: observable `ready` and `errorScan`, calls recorded. */
export class FakeChatHost implements ChatHost {
  ready = true;
  errorScan: ErrorScan | null = null;
  afterTurns = 0;
  versionsShown = 0;
  selectedElement: SelectedElement | null = null;

  constructor() {
    makeAutoObservable(this);
  }

  setReady(ready: boolean): void {
    this.ready = ready;
  }

  showScan(scan: ErrorScan): void {
    this.errorScan = scan;
  }

  async afterTurn(): Promise<void> {
    this.afterTurns += 1;
  }

  showVersions(): void {
    this.versionsShown += 1;
  }

  takeSelectedElement(): SelectedElement | null {
    const selected = this.selectedElement;
    this.selectedElement = null;
    return selected;
  }

  clearSelectedElement(): void {
    this.selectedElement = null;
  }
}

export class MemoryChatPreferences implements ChatPreferencesStore {
  readonly saved: ChatPreferences[] = [];
  constructor(private stored: ChatPreferences = { autoRun: false }) {}
  load(): ChatPreferences {
    return this.stored;
  }
  save(preferences: ChatPreferences): void {
    this.stored = preferences;
    this.saved.push(preferences);
  }
}
