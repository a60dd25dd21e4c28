// The chat and the element picked in the preview (SPEC §3 builder state: selected element).
import { describe, expect, it } from '@jest/globals';
import { MAX_TURN_MESSAGE_LENGTH } from '@kiln/domain';
import { ManualTimers } from '../../../testing/auth-fakes';
import { FakeUsageApi } from '../../../testing/billing-fakes';
import { FakeToasts, RecordingLogger } from '../../../testing/ui-fakes';
import { SequentialIds } from '../builder.fakes';
import { messagesFromHistory } from './chat-messages';
import { FakeAiApi, FakeChatHost, MemoryChatPreferences } from './chat.fakes';
import { ChatVm } from './chat.vm';

const settle = async () => {
  for (let i = 0; i < 20; i += 1) await new Promise((resolve) => setImmediate(resolve));
};

async function opened() {
  const ai = new FakeAiApi();
  const prompts = { get: () => null, set: () => undefined, remove: () => undefined };
  const timers = new ManualTimers(0);
  const vm = new ChatVm(ai, new FakeUsageApi(), { openFor: () => true }, prompts, new MemoryChatPreferences(), timers, new FakeToasts(), new SequentialIds(), new RecordingLogger());
  const host = new FakeChatHost();
  await vm.start('p1', host);
  await settle();
  return { vm, ai, host };
}

const users = (vm: ChatVm) => vm.messages.filter((m) => m.kind === 'user');

describe('ChatVm and the selected element', () => {
  it('sends the message about the picked element, shows it under the message, and clears it', async () => {
    const t = await opened();
    t.host.selectedElement = { tag: 'h1', text: 'Pantry', selector: 'header > h1' };
    expect(t.vm.selectedElement).toEqual({ tag: 'h1', text: 'Pantry', selector: 'header > h1' });
    t.vm.setInput('change this to Larder');
    t.vm.send();
    await settle();
    expect(t.ai.turns[0]?.input.message).toBe('change this to Larder\n\n[Selected element: <h1> “Pantry” · header > h1]');
    expect(users(t.vm)[0]).toMatchObject({ text: 'change this to Larder', selected: { tag: 'h1', text: 'Pantry' } });
    expect(t.vm.selectedElement).toBeNull();
    expect(t.host.selectedElement).toBeNull();
  });

  it('the person can say the message is not about it', async () => {
    const t = await opened();
    t.host.selectedElement = { tag: 'button', text: 'Buy', selector: '' };
    t.vm.clearSelectedElement();
    t.vm.setInput('add a footer');
    t.vm.send();
    await settle();
    expect(t.ai.turns[0]?.input.message).toBe('add a footer');
  });

  it('counts the element’s line in the message’s limit', async () => {
    const t = await opened();
    t.vm.setInput('x'.repeat(MAX_TURN_MESSAGE_LENGTH - 10));
    expect(t.vm.canSend).toBe(true);
    t.host.selectedElement = { tag: 'h1', text: 'Pantry', selector: '' };
    expect(t.vm.canSend).toBe(false);
  });

  it('a reloaded chat shows the words and the element apart', () => {
    const [user] = messagesFromHistory([
      { id: 't1', message: 'make this say Hi\n\n[Selected element: <h2> “Ingredients”]', status: 'kept', reply: '', plan: null, outcome: null, created_at: '2026-11-26T10:00:00Z', commit_hash: null, failure_code: null },
    ]);
    expect(user).toMatchObject({ kind: 'user', text: 'make this say Hi', selected: { tag: 'h2', text: 'Ingredients', selector: '' } });
  });
});
