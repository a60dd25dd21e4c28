import { describe, expect, it } from '@jest/globals';
import { type CodeError, errorScanFrom } from '@kiln/domain';
import { CHAT_PREFERENCES_KEY } from '../../../app/ports';
import { ManualTimers } from '../../../testing/auth-fakes';
import { FakeUsageApi } from '../../../testing/billing-fakes';
import { usageDto } from '../../../testing/api-fixtures';
import { MemoryStorage, RecordingLogger } from '../../../testing/ui-fakes';
import { SequentialIds } from '../builder.fakes';
import { AiStatusStore } from './ai-status.store';
import { checkSummary, fixErrorMessage, messagesFromHistory, outcomeText } from './chat-messages';
import { DEFAULT_CHAT_PREFERENCES, StoredChatPreferences, parseChatPreferences } from './chat-preferences';
import { CreditsStore } from './credits.store';
import { ErrorRecordsStore } from './error-records.store';

const A: CodeError = { message: "Cannot find name 'a'.", file: 'src/App.tsx', line: 3, column: 5, severity: 'error' };
const B: CodeError = { message: "'b' is declared but its value is never read.", file: 'src/main.tsx', line: 1, column: 7, severity: 'warning' };

describe('ErrorRecordsStore (SPEC §3/§4 error records)', () => {
  const store = () => new ErrorRecordsStore(new SequentialIds(), new ManualTimers(Date.parse('2024-01-01T12:00:00.000Z')));

  it('records each error once, counts how often it was seen and forgets what goes away on its own', () => {
    const records = store();
    records.sync(errorScanFrom([A, B, A]));
    records.sync(errorScanFrom([A]));
    expect(records.recordFor(A)).toMatchObject({ count: 2, solved: false, isSolving: false, timestamp: new Date('2024-01-01T12:00:00.000Z') });
    expect(records.recordFor(B)).toBeUndefined();
  });

  it('an error being fixed is solved when a scan no longer has it; if it comes back it is new', () => {
    const records = store();
    records.sync(errorScanFrom([A]));
    records.markSolving(A);
    expect(records.isSolving(A)).toBe(true);
    records.sync(errorScanFrom([A]));
    expect(records.isSolving(A)).toBe(true);
    records.sync(errorScanFrom([]));
    expect(records.recordFor(A)).toMatchObject({ solved: true, isSolving: false });
    expect(records.solved).toHaveLength(1);
    records.sync(errorScanFrom([A]));
    expect(records.recordFor(A)).toMatchObject({ solved: false, isSolving: false, count: 1 });
  });

  it('stopSolving leaves solved records alone', () => {
    const records = store();
    records.markSolving(A);
    records.markSolving(B);
    records.sync(errorScanFrom([A]));
    records.stopSolving([fixKey(A), fixKey(B)]);
    expect(records.recordFor(A)).toMatchObject({ solved: false, isSolving: false });
    expect(records.recordFor(B)).toMatchObject({ solved: true, isSolving: false });
  });

  const fixKey = (e: CodeError) => `${e.file}:${e.line}:${e.column}:${e.message}`;
});

describe('AiStatusStore', () => {
  it('follows the phase: words, flags, dots every 500 ms, no timer when idle', () => {
    const timers = new ManualTimers();
    const status = new AiStatusStore(timers);
    expect([status.working, status.label, timers.running]).toEqual([false, null, 0]);
    status.setPhase('fetching');
    expect([status.label, status.querying, status.dots, timers.running]).toEqual(['Gathering project details', true, '.', 1]);
    timers.advance(1000);
    expect(status.dots).toBe('...');
    status.setPhase('building'); // the animation keeps going, one timer only
    expect([status.executing, status.querying, timers.running, status.dots]).toEqual([true, true, 1, '...']);
    status.setPhase('idle');
    expect([status.working, status.querying, status.executing, timers.running]).toEqual([false, false, false, 0]);
  });
});

describe('CreditsStore', () => {
  it('loads the credits left and words them', async () => {
    const usage = new FakeUsageApi();
    usage.reply = usageDto({ credits_remaining: 1, is_unlimited_prompts: false, is_limitless_plan: false });
    const credits = new CreditsStore(usage, new RecordingLogger());
    expect(credits.leftText).toBeNull();
    await credits.load();
    expect(credits.leftText).toBe('1 credit left');
    credits.set(0);
    expect([credits.leftText, credits.exhausted]).toEqual(['No credits left', true]);
    credits.set(12);
    expect(credits.leftText).toBe('12 credits left');
  });

  it('says unlimited on a limitless plan, and keeps quiet when usage cannot load', async () => {
    const usage = new FakeUsageApi();
    usage.reply = usageDto({ is_unlimited_prompts: true });
    const credits = new CreditsStore(usage, new RecordingLogger());
    await credits.load();
    expect([credits.leftText, credits.exhausted]).toEqual(['Unlimited credits', false]);

    const failing = new FakeUsageApi();
    failing.reply = new Error('down');
    const unknown = new CreditsStore(failing, new RecordingLogger());
    await unknown.load();
    expect(unknown.leftText).toBeNull();
  });

  it('a credits event wins over a load still under way', async () => {
    let release!: () => void;
    const usage = new FakeUsageApi();
    usage.reply = () => new Promise((resolve) => (release = () => resolve(usageDto({ credits_remaining: 9, is_unlimited_prompts: false, is_limitless_plan: false }))));
    const credits = new CreditsStore(usage, new RecordingLogger());
    const loading = credits.load();
    credits.set(3);
    release();
    await loading;
    expect(credits.remaining).toBe(3);
  });
});

describe('chat preferences', () => {
  it('reads auto-run leniently and stores it under its own key', () => {
    expect(parseChatPreferences(null)).toEqual(DEFAULT_CHAT_PREFERENCES);
    expect(parseChatPreferences('{')).toEqual({ autoRun: false });
    expect(parseChatPreferences('{"autoRun":"yes"}')).toEqual({ autoRun: false });
    const storage = new MemoryStorage();
    const stored = new StoredChatPreferences(storage);
    stored.save({ autoRun: true });
    expect(storage.get(CHAT_PREFERENCES_KEY)).toBe('{"autoRun":true}');
    expect(stored.load()).toEqual({ autoRun: true });
  });
});

describe('chat messages', () => {
  it("words a turn's check, and one that could not run without counts", () => {
    expect(checkSummary({ round: 0, errorCount: 1, warningCount: 0 })).toBe('Check: 1 error, 0 warnings');
    expect(checkSummary({ round: 0, errorCount: 0, warningCount: 0, unavailableReason: 'The build could not run.' })).toBe('The check could not run: The build could not run.');
  });

  it('words outcomes and fix requests', () => {
    expect(outcomeText({ status: 'kept', outcome: 'whatever' })).toBe('Kept as a new version');
    expect(outcomeText({ status: 'kept', outcome: '', commitHash: 'abc1234', operations: [] })).toBe('Kept as a new version');
    expect(outcomeText({ status: 'kept', outcome: '', commitHash: null, operations: [{ type: 'write_file', path: 'a.ts' }] })).toBe('Kept as a new version');
    expect(outcomeText({ status: 'kept', outcome: '', commitHash: null, operations: [] })).toBe('Done: nothing in your project needed to change.');
    expect(outcomeText({ status: 'reverted', outcome: '' })).toBe('Reverted: your project was put back as it was, and the credits refunded.');
    expect(outcomeText({ status: 'running', outcome: '' })).toBeNull();
    expect(outcomeText({ status: 'awaiting', outcome: '' })).toBeNull();
    expect(fixErrorMessage(A)).toBe("Fix this error in src/App.tsx:3:5: Cannot find name 'a'.");
  });

  it('reads history turns of every status, plans without a cost included', () => {
    const messages = messagesFromHistory([
      { id: 't1', message: 'a', status: 'reverted', reply: 'Tried.', outcome: 'It broke the build.', plan: null, created_at: '', commit_hash: null },
      {
        id: 't2',
        message: 'b',
        status: 'awaiting_approval',
        reply: null,
        plan: { kind: 'build', modules: [], tasks: [{ id: 'x', module_id: 'm', title: 'X', description: '' }, { id: 'y', module_id: 'm', title: 'Y', description: '' }] } as never,
        created_at: '',
        commit_hash: null,
      },
      { id: 't3', message: 'c', status: 'queued', reply: '', plan: null, created_at: '', commit_hash: null },
      { id: 't4', message: 'd', status: 'failed', reply: 'I cannot do that.', outcome: 'Nothing was changed, and no credit was used.', plan: null, created_at: '', commit_hash: null, failure_code: 'AI.DECLINED' },
      { id: 't5', message: 'e', status: 'failed', reply: '', outcome: 'The model is unavailable', plan: null, created_at: '', commit_hash: null, failure_code: 'AI.PROVIDER_FAILED' },
    ]);
    const replies = messages.filter((m) => m.kind === 'assistant');
    expect(replies.map((m) => (m.kind === 'assistant' ? [m.status, outcomeText(m)] : null))).toEqual([
      ['reverted', 'Reverted: It broke the build.'],
      ['awaiting', null],
      ['unknown', 'Still working on this when the page opened.'],
      ['declined', 'Nothing was changed, and no credit was used.'],
      ['failed', 'Failed: The model is unavailable'],
    ]);
    expect(replies[1]).toMatchObject({ awaitingCost: 2, turnId: 't2' });
  });

  it('keeps the line breaks of both sides of a reloaded turn (the view renders them with pre-wrap)', () => {
    const [user, reply] = messagesFromHistory([
      { id: 't1', message: 'A todo app.\n\nWith dark mode.', status: 'kept', reply: 'First task.\n\nSecond task.', plan: null, created_at: '', commit_hash: 'abc' },
    ]);
    expect(user).toMatchObject({ kind: 'user', text: 'A todo app.\n\nWith dark mode.' });
    expect(reply).toMatchObject({ kind: 'assistant', text: 'First task.\n\nSecond task.' });
  });
});
