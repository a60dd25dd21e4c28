import { describe, expect, it } from '@jest/globals';
import { type CodeError, errorScanFrom } from '@kiln/domain';
import { ApiError, type SavedPrompts } from '../../../app/ports';
import { LimitReachedError, type TurnHistoryDto } from '../../../api/ai.api';
import type { TurnEvent, TurnPlanDto } from '../../../api/turn-stream';
import { ManualTimers } from '../../../testing/auth-fakes';
import { FakeUsageApi } from '../../../testing/billing-fakes';
import { usageDto } from '../../../testing/api-fixtures';
import { FakeToasts, RecordingLogger } from '../../../testing/ui-fakes';
import { limitTypeOf } from '../../billing/upgrade-dialog.store';
import { SequentialIds } from '../builder.fakes';
import { type AssistantMessage, type UserMessage, outcomeText } from './chat-messages';
import { FakeAiApi, FakeChatHost, MemoryChatPreferences } from './chat.fakes';
import { CONNECTION_LOST, ChatVm } from './chat.vm';

class MemoryPrompts implements SavedPrompts {
  readonly map = new Map<string, string>();
  get(key: string) {
    return this.map.get(key) ?? null;
  }
  set(key: string, prompt: string) {
    this.map.set(key, prompt);
  }
  remove(key: string) {
    this.map.delete(key);
  }
}

const settle = async () => {
  for (let i = 0; i < 20; i += 1) await new Promise((resolve) => setImmediate(resolve));
};

const PLAN: TurnPlanDto = {
  kind: 'build',
  modules: [{ id: 'm1', title: 'App', description: '' }],
  tasks: [
    { id: 'a', module_id: 'm1', title: 'Layout', description: '' },
    { id: 'b', module_id: 'm1', title: 'Menu', description: '' },
    { id: 'c', module_id: 'm1', title: 'Footer', description: '' },
  ],
  cost: 3,
};

const ERROR: CodeError = { message: "Cannot find name 'foo'.", file: 'src/App.tsx', line: 3, column: 7, severity: 'error' };

const ev = {
  turn: (turnId = 't1'): TurnEvent => ({ type: 'turn', data: { turn_id: turnId, message: '' } }),
  phase: (phase: 'idle' | 'thinking' | 'fetching' | 'building'): TurnEvent => ({ type: 'phase', data: { phase } }),
  task: (id: string, index: number, state: 'running' | 'done' | 'failed'): TurnEvent => ({ type: 'task', data: { task_id: id, index, title: '', state } }),
  text: (text: string, taskId = 'a'): TurnEvent => ({ type: 'text', data: { task_id: taskId, text } }),
  credits: (left: number): TurnEvent => ({ type: 'credits', data: { charged: 1, refunded: 0, credits_remaining: left } }),
  errors: (errors: CodeError[]): TurnEvent => ({
    type: 'errors',
    data: { round: 1, error_count: errors.filter((e) => e.severity === 'error').length, warning_count: 0, errors: errors.map((e) => ({ ...e })) },
  }),
  kept: (hash = 'abc1234def'): TurnEvent => ({ type: 'done', data: { status: 'kept', message: 'Add a footer', commit_hash: hash } }),
  reverted: (message: string): TurnEvent => ({ type: 'done', data: { status: 'reverted', message } }),
};

function setUp(options: { autoRun?: boolean; credits?: number } = {}) {
  const ai = new FakeAiApi();
  const usage = new FakeUsageApi();
  usage.reply = usageDto({ credits_remaining: options.credits ?? 5, is_unlimited_prompts: false, is_limitless_plan: false });
  const upgrades: [unknown, string | undefined][] = [];
  const prompts = new MemoryPrompts();
  const preferences = new MemoryChatPreferences({ autoRun: options.autoRun ?? false });
  const timers = new ManualTimers(Date.parse('2024-01-01T12:00:00.000Z'));
  const toasts = new FakeToasts();
  const vm = new ChatVm(
    ai,
    usage,
    { openFor: (error, fallback) => (upgrades.push([error, fallback]), true) },
    prompts,
    preferences,
    timers,
    toasts,
    new SequentialIds(),
    new RecordingLogger(),
  );
  const host = new FakeChatHost();
  return { vm, ai, usage, upgrades, prompts, preferences, timers, toasts, host };
}

async function opened(options: Parameters<typeof setUp>[0] = {}) {
  const t = setUp(options);
  await t.vm.start('p1', t.host);
  await settle();
  return t;
}

const assistant = (vm: ChatVm): AssistantMessage[] => vm.messages.filter((m): m is AssistantMessage => m.kind === 'assistant');
const users = (vm: ChatVm): UserMessage[] => vm.messages.filter((m): m is UserMessage => m.kind === 'user');

async function say(vm: ChatVm, text: string) {
  vm.setInput(text);
  vm.send();
  await settle();
}

describe('ChatVm: a turn', () => {
  it('sends the message, streams the reply and ends kept, with credits and the builder refreshed', async () => {
    const t = await opened();
    expect(t.vm.credits.leftText).toBe('5 credits left');
    expect(t.vm.costText).toBe('This message uses 1 credit');

    await say(t.vm, '  Add a footer  ');

    expect(t.vm.input).toBe('');
    expect(t.ai.turns).toHaveLength(1);
    expect(t.ai.turns[0]?.projectId).toBe('p1');
    expect(t.ai.turns[0]?.input).toMatchObject({ message: 'Add a footer', autoRun: false });
    expect(t.ai.turns[0]?.input.idempotencyKey).toEqual(expect.any(String));
    expect(t.vm.busy).toBe(true);
    expect(t.vm.status.label).toBe('Analyzing your request');

    t.ai.last.emit(ev.turn(), ev.phase('thinking'), ev.phase('building'), ev.task('a', 0, 'running'), ev.credits(4), ev.text('Adding a '), ev.text('footer.'));
    t.ai.last.emit({ type: 'operation', data: { task_id: 'a', type: 'write_file', path: 'src/Footer.tsx' } });
    await settle();
    expect(t.vm.status.label).toBe('Building your app');
    expect(t.vm.status.executing).toBe(true);
    expect(t.vm.credits.leftText).toBe('4 credits left');
    const reply = assistant(t.vm)[0] as AssistantMessage;
    expect(reply).toMatchObject({ turnId: 't1', text: 'Adding a footer.', status: 'running', operations: [{ type: 'write_file', path: 'src/Footer.tsx' }] });
    expect(reply.tasks).toEqual([{ id: 'a', index: 0, title: 'Task 1', state: 'running' }]);

    t.ai.last.emit(ev.task('a', 0, 'done'), { type: 'checking', data: { round: 1 } });
    await settle();
    expect(reply.checkingRound).toBe(1);
    t.ai.last.emit(ev.errors([]), ev.phase('idle'), ev.kept());
    t.ai.last.end();
    await settle();

    expect(reply).toMatchObject({ status: 'kept', commitHash: 'abc1234def', checkingRound: null, check: { round: 1, errorCount: 0, warningCount: 0 } });
    expect(outcomeText(reply)).toBe('Kept as a new version');
    expect(t.host.errorScan).toEqual(errorScanFrom([]));
    expect(t.host.afterTurns).toBe(1);
    expect(t.vm.busy).toBe(false);
    expect(t.vm.status.working).toBe(false);
    expect(users(t.vm).map((m) => [m.text, m.state])).toEqual([['Add a footer', 'sent']]);
  });

  it('animates the status line every 500 ms while working and stops when idle', async () => {
    const t = await opened();
    await say(t.vm, 'Add a footer');
    expect(t.vm.status.dots).toBe('.');
    t.timers.advance(500);
    expect(t.vm.status.dots).toBe('..');
    t.timers.advance(1000);
    expect(t.vm.status.dots).toBe('.');
    t.ai.last.emit(ev.phase('idle'), ev.kept());
    t.ai.last.end();
    await settle();
    expect(t.timers.running).toBe(0);
  });

  it('shows a reverted turn with its reason, and refreshes the builder', async () => {
    const t = await opened();
    await say(t.vm, 'Break everything');
    t.ai.last.emit(ev.turn(), ev.reverted('The changes broke the build, so they were undone and your credit refunded.'), ev.credits(5));
    t.ai.last.end();
    await settle();
    const reply = assistant(t.vm)[0] as AssistantMessage;
    expect(outcomeText(reply)).toBe('Reverted: The changes broke the build, so they were undone and your credit refunded.');
    expect(t.host.afterTurns).toBe(1);
    expect(t.vm.credits.remaining).toBe(5);
  });

  it('shows an error event as a failed reply and does not refresh the builder', async () => {
    const t = await opened();
    await say(t.vm, 'Add a footer');
    t.ai.last.emit({ type: 'error', data: { code: 'AI.PROVIDER_FAILED', detail: 'The assistant is unavailable right now.' } });
    t.ai.last.end();
    await settle();
    expect(outcomeText(assistant(t.vm)[0] as AssistantMessage)).toBe('Failed: The assistant is unavailable right now.');
    expect(t.host.afterTurns).toBe(0);
  });

  it('shows a declined request as the assistant’s answer, with nothing used, and does not refresh the builder', async () => {
    const t = await opened();
    await say(t.vm, 'Make the buttons wiggle');
    t.ai.last.emit(ev.turn(), { type: 'error', data: { code: 'AI.DECLINED', detail: 'I’m not sure what to change. I can build …' } });
    t.ai.last.end();
    await settle();
    const reply = assistant(t.vm)[0] as AssistantMessage;
    expect(reply).toMatchObject({ status: 'declined', text: 'I’m not sure what to change. I can build …' });
    expect(outcomeText(reply)).toBe('Nothing was changed, and no credit was used.');
    expect(t.host.afterTurns).toBe(0);
  });

  it('says the connection was lost when the stream ends without an outcome', async () => {
    const t = await opened();
    await say(t.vm, 'Add a footer');
    t.ai.last.emit(ev.turn(), ev.task('a', 0, 'running'));
    t.ai.last.end();
    await settle();
    const reply = assistant(t.vm)[0] as AssistantMessage;
    expect(reply).toMatchObject({ status: 'failed', outcome: CONNECTION_LOST });
    expect(reply.tasks[0]?.state).toBe('failed');
    expect(t.host.afterTurns).toBe(1);
    expect(t.vm.busy).toBe(false);
  });

  it('aborts the stream when the builder closes and ignores what comes later', async () => {
    const t = await opened();
    await say(t.vm, 'Add a footer');
    const signal = t.ai.turns[0]?.signal;
    t.vm.dispose();
    expect(signal?.aborted).toBe(true);
    expect(t.vm.status.working).toBe(false);
    expect(t.timers.running).toBe(0);
  });

  it('refuses empty and over-long messages', async () => {
    const t = await opened();
    await say(t.vm, '   ');
    await say(t.vm, 'x'.repeat(20_001));
    expect(t.ai.turns).toHaveLength(0);
  });
});

describe('ChatVm: the message queue (SPEC §3)', () => {
  it('queues messages typed while a turn runs and sends them in order', async () => {
    const t = await opened();
    await say(t.vm, 'First');
    await say(t.vm, 'Second');
    await say(t.vm, 'Third');
    expect(t.ai.turns.map((c) => c.input.message)).toEqual(['First']);
    expect(t.vm.queue.map((q) => q.text)).toEqual(['Second', 'Third']);

    t.ai.last.emit(ev.kept('aaaa111'));
    t.ai.last.end();
    await settle();
    expect(t.ai.turns.map((c) => c.input.message)).toEqual(['First', 'Second']);
    expect(t.vm.queue.map((q) => q.text)).toEqual(['Third']);

    t.ai.last.emit(ev.reverted('nope'));
    t.ai.last.end();
    await settle();
    t.ai.last.emit(ev.kept('bbbb222'));
    t.ai.last.end();
    await settle();

    expect(t.ai.turns.map((c) => c.input.message)).toEqual(['First', 'Second', 'Third']);
    expect(users(t.vm).map((m) => m.text)).toEqual(['First', 'Second', 'Third']);
    expect(assistant(t.vm).map((m) => m.status)).toEqual(['kept', 'reverted', 'kept']);
    expect(new Set(t.ai.turns.map((c) => c.input.idempotencyKey)).size).toBe(3);
  });

  it('lets a queued message be removed before it is sent', async () => {
    const t = await opened();
    await say(t.vm, 'First');
    await say(t.vm, 'Second');
    t.vm.removeQueued(t.vm.queue[0]?.id ?? '');
    t.ai.last.emit(ev.kept());
    t.ai.last.end();
    await settle();
    expect(t.ai.turns.map((c) => c.input.message)).toEqual(['First']);
  });

  it('waits for the sandbox before sending', async () => {
    const t = setUp();
    t.host.setReady(false);
    await t.vm.start('p1', t.host);
    await say(t.vm, 'Add a footer');
    expect(t.ai.turns).toHaveLength(0);
    expect(t.vm.queue).toHaveLength(1);
    t.host.setReady(true);
    await settle();
    expect(t.ai.turns.map((c) => c.input.message)).toEqual(['Add a footer']);
  });
});

describe('ChatVm: plans', () => {
  async function awaiting() {
    const t = await opened();
    await say(t.vm, 'Build a café site');
    t.ai.last.emit(ev.turn('t9'), ev.phase('thinking'), { type: 'plan', data: PLAN }, ev.phase('idle'), { type: 'awaiting_approval', data: { turn_id: 't9', cost: 3 } });
    t.ai.last.end();
    await settle();
    return t;
  }

  it('shows a plan of several tasks with its cost and waits for Run plan; messages meanwhile wait', async () => {
    const t = await awaiting();
    const reply = t.vm.pendingPlan as AssistantMessage;
    expect(reply).toMatchObject({ status: 'awaiting', awaitingCost: 3, turnId: 't9' });
    expect(reply.tasks.map((task) => [task.title, task.state])).toEqual([
      ['Layout', 'pending'],
      ['Menu', 'pending'],
      ['Footer', 'pending'],
    ]);
    expect(t.vm.status.working).toBe(false);
    expect(t.host.afterTurns).toBe(0);

    await say(t.vm, 'Then add a contact page');
    expect(t.ai.turns).toHaveLength(1);

    void t.vm.acceptPlan();
    await settle();
    expect(t.ai.accepted).toEqual(['t9']);
    expect(reply.status).toBe('running');
    t.ai.last.emit(ev.phase('building'), ev.task('a', 0, 'running'), ev.credits(4), ev.task('a', 0, 'done'), ev.task('b', 1, 'running'));
    await settle();
    expect(reply.tasks.map((task) => task.state)).toEqual(['done', 'running', 'pending']);
    t.ai.last.emit(ev.task('b', 1, 'done'), ev.task('c', 2, 'done'), ev.credits(2), ev.phase('idle'), ev.kept());
    t.ai.last.end();
    await settle();

    expect(reply.status).toBe('kept');
    expect(t.vm.credits.remaining).toBe(2);
    expect(t.ai.turns.map((c) => c.input.message)).toEqual(['Build a café site', 'Then add a contact page']);
  });

  it('Cancel plan drops it and moves on', async () => {
    const t = await awaiting();
    await say(t.vm, 'Something else');
    await t.vm.cancelPlan();
    await settle();
    expect(t.ai.cancelled).toEqual(['t9']);
    expect(outcomeText(assistant(t.vm)[0] as AssistantMessage)).toBe('Plan cancelled. Nothing was charged.');
    expect(t.ai.turns.map((c) => c.input.message)).toEqual(['Build a café site', 'Something else']);
  });

  it('shows one credit line: the waiting plan’s cost (as on its card), then the message cost again', async () => {
    const t = await awaiting();
    expect(t.vm.costText).toBe('This plan uses 3 credits');
    await t.vm.cancelPlan();
    await settle();
    expect(t.vm.pendingPlan).toBeNull();
    expect(t.vm.costText).toBe('This message uses 1 credit');
  });

  it('keeps the plan waiting when running it is refused for credits, and opens the upgrade dialog', async () => {
    const t = await awaiting();
    t.ai.refuseNextAccept = new LimitReachedError(new ApiError('No credits left', 402, 'CREDITS.LIMIT_REACHED', { limit_type: 'credit' }));
    await t.vm.acceptPlan();
    await settle();
    expect(t.vm.pendingPlan?.planError).toBe('You have no credits left to run this plan.');
    expect(t.upgrades.map(([error, fallback]) => limitTypeOf(error, fallback as 'credit'))).toEqual(['credit']);
  });

  it('sends auto_run from the stored switch, and stores the switch', async () => {
    const t = await opened({ autoRun: true });
    expect(t.vm.autoRun).toBe(true);
    expect(t.vm.costText).toBe('This message uses 1 credit per task');
    await say(t.vm, 'Build it');
    expect(t.ai.turns[0]?.input.autoRun).toBe(true);
    t.vm.toggleAutoRun();
    expect(t.preferences.saved).toEqual([{ autoRun: false }]);
  });
});

describe('ChatVm: out of credits', () => {
  it('a 402 opens the upgrade dialog for credit, keeps the text and holds the queue', async () => {
    const t = await opened({ credits: 0 });
    expect(t.vm.credits.leftText).toBe('No credits left');
    t.ai.refuseNextTurn = new LimitReachedError(new ApiError('You have no credits left', 402, 'CREDITS.LIMIT_REACHED', { limit_type: 'credit' }));

    await say(t.vm, 'Add a footer');

    expect(t.upgrades).toHaveLength(1);
    expect(limitTypeOf(t.upgrades[0]?.[0], 'credit')).toBe('credit');
    expect(t.upgrades[0]?.[1]).toBe('credit');
    expect(users(t.vm).map((m) => [m.text, m.state])).toEqual([['Add a footer', 'refused']]);
    expect(assistant(t.vm)).toHaveLength(0);
    expect(t.vm.input).toBe('Add a footer');
    expect(t.vm.paused).toBe(true);
    expect(t.vm.status.working).toBe(false);

    // Sending again (after an upgrade) goes through.
    t.vm.send();
    await settle();
    expect(t.ai.turns).toHaveLength(2);
  });

  it('a failure before streaming shows the reason and moves on', async () => {
    const t = await opened();
    t.ai.refuseNextTurn = new ApiError('Request failed', 500, null, null);
    await say(t.vm, 'Add a footer');
    expect(outcomeText(assistant(t.vm)[0] as AssistantMessage)).toBe('Failed: Request failed');
    expect(t.upgrades).toHaveLength(0);
    expect(t.vm.busy).toBe(false);
  });
});

describe('ChatVm: history and the saved idea', () => {
  const turn = (overrides: Partial<TurnHistoryDto>): TurnHistoryDto => ({
    id: 't1',
    message: 'Build a café site',
    status: 'kept',
    reply: 'I built it.',
    plan: null,
    created_at: '2024-01-01T10:00:00.000Z',
    commit_hash: 'abc1234',
    ...overrides,
  });

  it('loads the history as messages, a waiting plan included', async () => {
    const t = setUp();
    t.ai.historyReply = [turn({}), turn({ id: 't2', message: 'Add a menu', status: 'awaiting_approval', reply: null, plan: PLAN, commit_hash: null })];
    t.prompts.set('p1', 'Build a café site');
    await t.vm.start('p1', t.host);
    await settle();

    expect(t.vm.history).toBe('ready');
    expect(t.vm.messages.map((m) => (m.kind === 'user' ? `user: ${m.text}` : `assistant: ${m.status}`))).toEqual([
      'user: Build a café site',
      'assistant: kept',
      'user: Add a menu',
      'assistant: awaiting',
    ]);
    expect(t.vm.pendingPlan).toMatchObject({ turnId: 't2', awaitingCost: 3 });
    // A project with turns never replays its saved idea.
    expect(t.ai.turns).toHaveLength(0);
  });

  it('sends the saved idea as the first turn, with auto-run, once', async () => {
    const t = setUp({ autoRun: false });
    t.prompts.set('p1', 'A habit tracker with streaks');
    t.prompts.set('p2', 'Another project');

    // React StrictMode: mount, unmount, mount.
    void t.vm.start('p1', t.host);
    t.vm.dispose();
    await t.vm.start('p1', t.host);
    await settle();

    expect(t.ai.turns.map((c) => [c.input.message, c.input.autoRun])).toEqual([['A habit tracker with streaks', true]]);
    expect(t.prompts.get('p1')).toBeNull();
    expect(t.prompts.get('p2')).toBe('Another project');

    t.ai.last.emit(ev.kept());
    t.ai.last.end();
    await settle();
    t.vm.dispose();
    await t.vm.start('p1', t.host);
    await settle();
    expect(t.ai.turns).toHaveLength(1);
  });

  it('waits for the sandbox before building the saved idea', async () => {
    const t = setUp();
    t.prompts.set('p1', 'A blog');
    t.host.setReady(false);
    await t.vm.start('p1', t.host);
    await settle();
    expect(t.ai.turns).toHaveLength(0);
    t.host.setReady(true);
    await settle();
    expect(t.ai.turns.map((c) => c.input.message)).toEqual(['A blog']);
  });

  it('offers the saved idea in the composer when the history cannot be read', async () => {
    const t = setUp();
    t.ai.historyReply = new ApiError('Request failed', 500, null, null);
    t.prompts.set('p1', 'A blog');
    await t.vm.start('p1', t.host);
    await settle();
    expect(t.vm.history).toBe('failed');
    expect(t.ai.turns).toHaveLength(0);
    expect(t.vm.input).toBe('A blog');
    expect(t.prompts.get('p1')).toBe('A blog');
  });
});

describe('ChatVm: Fix with AI', () => {
  it('sends the error, marks it being solved, and solved when the next scan no longer has it', async () => {
    const t = await opened();
    t.host.showScan(errorScanFrom([ERROR]));
    await settle();

    t.vm.fixError(ERROR);
    await settle();

    expect(t.ai.turns[0]?.input.message).toBe("Fix this error in src/App.tsx:3:7: Cannot find name 'foo'.");
    expect(t.vm.isSolving(ERROR)).toBe(true);
    t.vm.fixError(ERROR); // asked once only
    expect(t.vm.queue).toHaveLength(0);

    t.ai.last.emit(ev.errors([ERROR]));
    await settle();
    expect(t.vm.isSolving(ERROR)).toBe(true);

    t.ai.last.emit(ev.errors([]), ev.kept());
    t.ai.last.end();
    await settle();
    expect(t.vm.isSolving(ERROR)).toBe(false);
    expect(t.vm.errorRecords.recordFor(ERROR)).toMatchObject({ solved: true, isSolving: false });
  });

  it('stops showing the fix under way when the turn ends and the error is still there', async () => {
    const t = await opened();
    t.host.showScan(errorScanFrom([ERROR]));
    t.vm.fixError(ERROR);
    await settle();
    t.ai.last.emit(ev.errors([ERROR]), ev.reverted('It did not help'));
    t.ai.last.end();
    await settle();
    expect(t.vm.errorRecords.recordFor(ERROR)).toMatchObject({ solved: false, isSolving: false });
  });
});

describe('ChatVm: prompt enhancement', () => {
  it('replaces the composer text with the enhanced prompt', async () => {
    const t = await opened();
    t.vm.setInput('todo app');
    await t.vm.enhance();
    expect(t.ai.enhanced).toEqual(['todo app']);
    expect(t.vm.input).toBe('A clear, complete prompt');
    expect(t.vm.enhancing).toBe(false);
  });

  it('keeps the text and says so when enhancement fails', async () => {
    const t = await opened();
    t.ai.enhanceReply = new Error('down');
    t.vm.setInput('todo app');
    await t.vm.enhance();
    expect(t.vm.input).toBe('todo app');
    expect(t.toasts.shown.map((s) => s.title)).toEqual(['Could not enhance the prompt']);
    // The toast's "Try again" asks once more, with the same text.
    t.ai.enhanceReply = 'A todo app with due dates';
    expect(t.toasts.shown[0]?.action?.label).toBe('Try again');
    t.toasts.shown[0]?.action?.run();
    await settle();
    expect(t.ai.enhanced).toEqual(['todo app', 'todo app']);
    expect(t.vm.input).toBe('A todo app with due dates');
  });

  it('over the AI rate limit, says how long to wait (the server’s words)', async () => {
    const t = await opened();
    t.ai.enhanceReply = new ApiError('Too many AI requests. Please wait 20 s and try again.', 429, 'AI.RATE_LIMITED', null);
    t.vm.setInput('todo app');
    await t.vm.enhance();
    expect(t.vm.input).toBe('todo app');
    expect(t.toasts.shown).toEqual([{ title: 'Could not enhance the prompt', description: 'Too many AI requests. Please wait 20 s and try again.', variant: 'error' }]);
  });

  it('does nothing without text', async () => {
    const t = await opened();
    await t.vm.enhance();
    expect(t.ai.enhanced).toEqual([]);
  });
});

describe('ChatVm: versions link', () => {
  it("opens the Versions tab from a reply's commit", async () => {
    const t = await opened();
    t.vm.showVersions();
    expect(t.host.versionsShown).toBe(1);
  });
});
