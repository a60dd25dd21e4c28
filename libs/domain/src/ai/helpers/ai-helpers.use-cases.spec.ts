import { describe, expect, it } from '@jest/globals';
import { PlanCatalog } from '../../plans/plan-catalog.js';
import { OwnedProjects } from '../../projects/owned-projects.js';
import { SandboxMissing } from '../../sandbox/sandbox-missing.js';
import { createTestKit, signUp } from '../../testing/test-kit.js';
import { type AiFailure, aiFailure, type CompletionEvent, type CompletionInput, type SummarizeOptions, type AiMessage } from '../ai-assistant.port.js';
import { CONTEXT_RESERVE_CHARS, TREE_SHARE } from '../context/turn-context.js';
import { planOf, ScriptedAiAssistant } from '../engine/testing/scripted-ai-assistant.js';
import { TEMPLATE_INFO, TemplateCatalog } from '../../templates/project-template.js';
import { promptForTemplate } from '../../templates/template-prompt.js';
import { AskModel, conversationOf, EnhancePrompt, type PlanContextSource, type PlanStep, PreviewPlan, SummarizeConversation } from './ai-helpers.use-cases.js';

/** An assistant that records what the helpers hand it, and fails when told to. */
class RecordingAssistant extends ScriptedAiAssistant {
  readonly completions: CompletionInput[] = [];
  readonly summaries: { messages: readonly AiMessage[]; options?: SummarizeOptions }[] = [];
  failWith: AiFailure | null = null;

  override async summarize(messages: readonly AiMessage[], options?: SummarizeOptions): Promise<string> {
    this.summaries.push({ messages, ...(options === undefined ? {} : { options }) });
    if (this.failWith !== null) throw new Error('provider down', { cause: this.failWith });
    return super.summarize(messages);
  }

  override async *complete(input: CompletionInput): AsyncIterable<CompletionEvent> {
    this.completions.push(input);
    yield { type: 'text', text: 'Hel' };
    yield { type: 'text', text: 'lo' };
    if (this.failWith !== null) yield { type: 'error', error: this.failWith };
    else yield { type: 'done', finishReason: 'stop' };
  }

  override async enhancePrompt(prompt: string): Promise<string> {
    if (this.failWith !== null) throw this.failWith;
    return super.enhancePrompt(prompt);
  }
}

const failure = aiFailure('AI.PROVIDER_FAILED', 'The provider is down', 503);

describe('conversationOf', () => {
  it("keeps the chat's turns and joins the instructions around its system messages, leaving blanks out", () => {
    const messages = [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'Hello' },
      { role: 'system', content: '  ' },
    ] as const;
    expect(conversationOf(messages, { before: 'You help.', after: 'Keep names.' })).toEqual({
      messages: [
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: 'Hello' },
      ],
      system: 'You help.\n\nBe brief.\n\nKeep names.',
    });
    expect(conversationOf([{ role: 'user', content: 'Hi' }])).toEqual({ messages: [{ role: 'user', content: 'Hi' }] });
  });
});

describe('AI helper use cases', () => {
  it('enhance and summarize answer the model, and its failure as the AiFailure it carries', async () => {
    const assistant = new RecordingAssistant();
    expect(await new EnhancePrompt(assistant).execute('a shop')).toEqual({ ok: true, value: 'Enhanced: a shop' });
    const summary = await new SummarizeConversation(assistant).execute({
      messages: [{ role: 'system', content: 'Rules' }, { role: 'user', content: 'Hi' }],
      system: 'First',
      instruction: 'Keep decisions',
    });
    expect(summary).toEqual({ ok: true, value: '1 messages' });
    expect(assistant.summaries[0]?.options?.instruction).toBe('First\n\nRules\n\nKeep decisions');
    assistant.failWith = failure;
    expect(await new EnhancePrompt(assistant).execute('a shop')).toEqual({ ok: false, error: failure });
    expect(await new SummarizeConversation(assistant).execute({ messages: [] })).toEqual({ ok: false, error: failure });
  });

  it('enhance shapes the answer around a catalog template; another template id is only passed on', async () => {
    const assistant = new RecordingAssistant();
    const templates = new TemplateCatalog({ filesFor: () => new Map() });
    const enhance = new EnhancePrompt(assistant, templates);
    const landing = await enhance.execute('a bakery called Crumbs', 'landing');
    expect(landing).toEqual({ ok: true, value: `${promptForTemplate('', TEMPLATE_INFO.landing)} Enhanced: a bakery called Crumbs` });
    expect(landing.ok && landing.value).toMatch(/^Start from the Landing page template, which already has a hero, features/);
    const dashboard = await enhance.execute('sales for my shop', 'dashboard');
    expect(dashboard.ok && dashboard.value).toMatch(/^Start from the Dashboard template, which already has stat cards/);
    expect(await enhance.execute('a shop', 'some-project-template')).toEqual({ ok: true, value: 'Enhanced: a shop' });
    expect(await enhance.execute('a shop')).toEqual({ ok: true, value: 'Enhanced: a shop' });
    assistant.failWith = failure;
    expect(await enhance.execute('a shop', 'landing')).toEqual({ ok: false, error: failure });
  });

  it('ask refuses another model before anything is asked, and reads the answer as it streams', async () => {
    const assistant = new RecordingAssistant();
    const ask = new AskModel(assistant);
    expect(ask.execute({ messages: [], model: 'gpt-9', responseFormat: 'text' })).toEqual({
      ok: false,
      error: { code: 'VALIDATION_FAILED', message: 'model: must be the configured model (scripted-1) or left out' },
    });
    expect(assistant.completions).toHaveLength(0);
    const accepted = ask.execute({ messages: [{ role: 'user', content: 'Hi' }], model: 'scripted-1', temperature: 0.2, responseFormat: 'json' });
    if (!accepted.ok) throw new Error('refused');
    const chunks: string[] = [];
    expect(await accepted.value.read((text) => chunks.push(text))).toEqual({ ok: true, value: 'Hello' });
    expect(chunks).toEqual(['Hel', 'lo']);
    expect(assistant.completions[0]).toMatchObject({ temperature: 0.2, responseFormat: 'json', messages: [{ role: 'user', content: 'Hi' }] });
    assistant.failWith = failure;
    const failing = ask.execute({ messages: [], responseFormat: 'text' });
    expect(failing.ok && (await failing.value.read())).toEqual({ ok: false, error: failure });
  });

  async function planSetUp(context: PlanContextSource) {
    const kit = createTestKit({ plans: PlanCatalog.standard() });
    await signUp(kit, 'ana');
    await signUp(kit, 'bob');
    const created = await kit.createProject.execute({ creatorId: 'ana', name: 'Shop' });
    if (!created.ok) throw new Error('setup');
    const assistant = new ScriptedAiAssistant({ plans: [planOf(2)] });
    const problems: string[] = [];
    const preview = new PreviewPlan(new OwnedProjects(kit.projects, kit.clock), assistant, context, 100_000, { warn: (m) => problems.push(m) });
    return { id: created.value.id, assistant, preview, problems };
  }

  it("previews a plan of the caller's project with its files within the context limit, applying nothing", async () => {
    const asked: { budgetChars: number }[] = [];
    const { id, assistant, preview, problems } = await planSetUp({
      contextFor: async (request) => {
        asked.push(request);
        return { tree: ['src/App.tsx', 'package.json'], files: [{ path: 'src/App.tsx', content: 'app' }] };
      },
    });
    expect(await preview.execute({ userId: 'bob', projectId: id, prompt: 'add a cart' })).toEqual({
      ok: false,
      error: { code: 'PROJECTS.NOT_FOUND', message: `Record with id ${id} not found` },
    });
    const accepted = await preview.execute({ userId: 'ana', projectId: id, prompt: 'add a cart' });
    if (!accepted.ok) throw new Error('refused');
    const steps: PlanStep[] = [];
    const planned = await accepted.value.read((step) => steps.push(step));
    expect(planned).toEqual({ ok: true, value: planOf(2) });
    expect(steps.map((s) => s.type)).toEqual(['module', 'task', 'task']);
    expect(asked[0]?.budgetChars).toBe(100_000 - CONTEXT_RESERVE_CHARS - 'add a cart'.length - Math.floor(100_000 * TREE_SHARE));
    expect(assistant.planInputs[0]).toMatchObject({ prompt: 'add a cart', tree: ['src/App.tsx', 'package.json'], history: [] });
    expect(problems).toEqual([]);
  });

  it('plans from the prompt alone when there is no sandbox (quietly) or its files cannot be read (logged)', async () => {
    let cause: Error = new SandboxMissing('p');
    const { id, assistant, preview, problems } = await planSetUp({
      contextFor: () => Promise.reject(cause),
    });
    for (const next of [new Error('index down')]) {
      const accepted = await preview.execute({ userId: 'ana', projectId: id, prompt: 'add a cart' });
      expect(accepted.ok && (await accepted.value.read(() => undefined)).ok).toBe(true);
      cause = next;
    }
    const again = await preview.execute({ userId: 'ana', projectId: id, prompt: 'add a cart' });
    expect(again.ok && (await again.value.read(() => undefined)).ok).toBe(true);
    expect(assistant.planInputs.map((input) => [input.tree, input.files])).toEqual([
      [[], []],
      [[], []],
    ]);
    expect(problems).toEqual([`Planning ${id} without its files: index down`]);
  });
});
