import { describe, expect, it } from '@jest/globals';
import { REPLACES_APP_WARNING } from '@kiln/domain';
import type { SavedPrompts } from '../../../app/ports';
import { ApiError } from '../../../app/ports';
import type { TurnHistoryDto } from '../../../api/ai.api';
import type { TurnEvent, TurnPlanDto } from '../../../api/turn-stream';
import { ManualTimers } from '../../../testing/auth-fakes';
import { FakeUsageApi } from '../../../testing/billing-fakes';
import { usageDto } from '../../../testing/api-fixtures';
import { FakeToasts, RecordingLogger } from '../../../testing/ui-fakes';
import { SequentialIds } from '../builder.fakes';
import { type AssistantMessage, outcomeText } from './chat-messages';
import { FakeAiApi, FakeChatHost, MemoryChatPreferences } from './chat.fakes';
import { ChatVm } from './chat.vm';
import { FOLLOW_INTERVAL_MS } from './turn-follower';

// Issue #14: Stop, a reloaded chat following its turn, and a plan that replaces the app.

class NoPrompts implements SavedPrompts {
  get() {
    return null;
  }
  set() {}
  remove() {}
}

const settle = async () => {
  for (let i = 0; i < 20; i += 1) await new Promise((resolve) => setImmediate(resolve));
};

const STOPPED = 'Stopped. Your app is as it was before this message; 1 credit refunded.';

const turn = (overrides: Partial<TurnHistoryDto>): TurnHistoryDto => ({
  id: 't1',
  message: 'Add a footer',
  status: 'kept',
  reply: '',
  outcome: 'Changed 1 file.',
  plan: null,
  created_at: '2024-01-01T10:00:00.000Z',
  commit_hash: 'abc1234',
  ...overrides,
});

async function opened(history: readonly TurnHistoryDto[] = []) {
  const ai = new FakeAiApi();
  ai.historyReply = history;
  const usage = new FakeUsageApi();
  usage.reply = usageDto({ credits_remaining: 5, is_unlimited_prompts: false, is_limitless_plan: false });
  const timers = new ManualTimers(Date.parse('2024-01-01T12:00:00.000Z'));
  const toasts = new FakeToasts();
  const vm = new ChatVm(ai, usage, { openFor: () => true }, new NoPrompts(), new MemoryChatPreferences(), timers, toasts, new SequentialIds(), new RecordingLogger());
  const host = new FakeChatHost();
  await vm.start('p1', host);
  await settle();
  return { vm, ai, timers, toasts, host };
}

const replies = (vm: ChatVm) => vm.messages.filter((m): m is AssistantMessage => m.kind === 'assistant');
const started = (turnId = 't9'): TurnEvent[] => [
  { type: 'turn', data: { turn_id: turnId, message: '' } },
  { type: 'phase', data: { phase: 'building' } },
  { type: 'credits', data: { charged: 1, refunded: 0, credits_remaining: 4 } },
];

describe('ChatVm: Stop', () => {
  it('offers Stop once the server named the turn; Stop asks the server, and the stream ends the reply as stopped', async () => {
    const t = await opened();
    t.vm.setInput('Add a footer');
    t.vm.send();
    await settle();
    expect(t.vm.canStop).toBe(false); // no turn id yet: nothing to stop

    t.ai.last.emit(...started());
    await settle();
    expect(t.vm.canStop).toBe(true);

    const stopping = t.vm.stop();
    expect(t.vm.stopping).toBe(true);
    expect(t.vm.canStop).toBe(false);
    await stopping;
    expect(t.ai.stopped).toEqual(['t9']);
    expect(t.vm.stopping).toBe(false);

    t.ai.last.emit({ type: 'credits', data: { charged: 1, refunded: 1, credits_remaining: 5 } }, { type: 'phase', data: { phase: 'idle' } }, { type: 'done', data: { status: 'reverted', message: STOPPED } });
    t.ai.last.end();
    await settle();
    const [reply] = replies(t.vm);
    expect(reply).toMatchObject({ status: 'reverted', outcome: STOPPED });
    expect(reply && outcomeText(reply)).toBe(STOPPED);
    expect(t.vm.runningId).toBeNull();
    expect(t.vm.credits.remaining).toBe(5);
    expect(t.host.afterTurns).toBe(1);
  });

  it('says so when the stop could not be sent, and the turn goes on', async () => {
    const t = await opened();
    t.vm.setInput('Add a footer');
    t.vm.send();
    await settle();
    t.ai.last.emit(...started());
    await settle();
    t.ai.stopReply = new ApiError('The server is unreachable.', 503, 'UNAVAILABLE', null);
    await t.vm.stop();
    expect(t.toasts.shown).toEqual([expect.objectContaining({ title: 'Could not stop', variant: 'error' })]);
    expect(t.vm.runningId).not.toBeNull();
    expect(t.vm.canStop).toBe(true);
  });
});

describe('ChatVm: a turn under way when the chat opens (reload)', () => {
  it('shows it as running and reads the turn list every second until it ends, then shows its result', async () => {
    const t = await opened([turn({}), turn({ id: 't2', message: 'Add a menu', status: 'running', outcome: null, commit_hash: null })]);
    expect(replies(t.vm).map((r) => r.status)).toEqual(['kept', 'running']);
    expect(t.vm.runningId).toBe('t2:reply');
    expect(t.vm.busy).toBe(true);
    expect(t.vm.canStop).toBe(true);
    expect(t.vm.status.working).toBe(true);
    const reads = t.ai.historyCalls;

    t.timers.advance(FOLLOW_INTERVAL_MS);
    await settle();
    expect(t.ai.historyCalls).toBe(reads + 1);
    expect(t.vm.runningId).toBe('t2:reply');

    t.ai.historyReply = [turn({}), turn({ id: 't2', message: 'Add a menu', status: 'kept', outcome: 'Changed 2 files.', commit_hash: 'def5678' })];
    t.timers.advance(FOLLOW_INTERVAL_MS);
    await settle();
    expect(replies(t.vm)[1]).toMatchObject({ id: 't2:reply', status: 'kept', outcome: 'Changed 2 files.', commitHash: 'def5678' });
    expect(t.vm.runningId).toBeNull();
    expect(t.vm.status.working).toBe(false);
    expect(t.host.afterTurns).toBe(1);
    expect(t.timers.running).toBe(0);
  });

  it('a message typed meanwhile waits for the followed turn, then is sent', async () => {
    const t = await opened([turn({ status: 'running', outcome: null, commit_hash: null })]);
    t.vm.setInput('And a footer');
    t.vm.send();
    await settle();
    expect(t.ai.turns).toHaveLength(0);
    t.ai.historyReply = [turn({})];
    t.timers.advance(FOLLOW_INTERVAL_MS);
    await settle();
    expect(replies(t.vm)[0]).toMatchObject({ status: 'kept' });
    expect(t.ai.turns.map((x) => x.input.message)).toEqual(['And a footer']);
  });

  it('keeps following when a read fails', async () => {
    const t = await opened([turn({ status: 'queued', outcome: null, commit_hash: null })]);
    t.ai.historyReply = new Error('offline');
    t.timers.advance(FOLLOW_INTERVAL_MS);
    await settle();
    expect(t.vm.runningId).toBe('t1:reply');
    t.ai.historyReply = [turn({ status: 'failed', outcome: 'Something went wrong.', commit_hash: null, failure_code: 'TURNS.FAILED' })];
    t.timers.advance(FOLLOW_INTERVAL_MS);
    await settle();
    expect(replies(t.vm)[0]).toMatchObject({ status: 'failed', outcome: 'Something went wrong.' });
    expect(t.vm.runningId).toBeNull();
  });

  it('Stop on a followed turn ends it with the answer of the server', async () => {
    const t = await opened([turn({ status: 'running', outcome: null, commit_hash: null })]);
    t.ai.stopReply = turn({ status: 'reverted', outcome: STOPPED, commit_hash: null });
    await t.vm.stop();
    expect(t.ai.stopped).toEqual(['t1']);
    expect(replies(t.vm)[0]).toMatchObject({ status: 'reverted', outcome: STOPPED });
    expect(t.vm.runningId).toBeNull();
    expect(t.timers.running).toBe(0);
    expect(t.host.afterTurns).toBe(1);
  });

  it('stops following when the builder closes', async () => {
    const t = await opened([turn({ status: 'running', outcome: null, commit_hash: null })]);
    t.vm.dispose();
    expect(t.timers.running).toBe(0);
  });
});

describe('ChatVm: a plan that replaces the app', () => {
  const plan: TurnPlanDto = {
    kind: 'build',
    modules: [{ id: 'm1', title: 'App', description: '' }],
    tasks: [{ id: 'a', module_id: 'm1', title: 'Quiz', description: '' }],
    cost: 1,
    replaces_app: true,
  };

  it('warns and names the button "Replace my app"', async () => {
    const t = await opened();
    t.vm.setInput('Start over with a quiz');
    t.vm.send();
    await settle();
    t.ai.last.emit({ type: 'turn', data: { turn_id: 't5', message: '' } }, { type: 'plan', data: plan }, { type: 'awaiting_approval', data: { turn_id: 't5', cost: 1 } });
    t.ai.last.end();
    await settle();
    expect(t.vm.planWarning).toBe(REPLACES_APP_WARNING);
    expect(REPLACES_APP_WARNING).toBe('This replaces your current app (its pages, theme and text). Continue?');
    expect(t.vm.acceptLabel).toBe('Replace my app');
    void t.vm.acceptPlan();
    await settle();
    expect(t.ai.accepted).toEqual(['t5']);
  });

  it('an ordinary plan, and one from the history, read as before / as stored', async () => {
    const t = await opened([turn({ status: 'awaiting_approval', outcome: null, commit_hash: null, plan })]);
    expect(t.vm.planWarning).toBe(REPLACES_APP_WARNING);
    await t.vm.cancelPlan();
    expect(t.vm.planWarning).toBeNull();
    expect(t.vm.acceptLabel).toBe('Run plan');
  });
});
