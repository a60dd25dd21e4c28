import { describe, expect, it } from '@jest/globals';
import { applyOperations, type AiMessage, type AssistantEvent, type CompletionEvent, type CompletionInput, type FileOperation } from '@kiln/domain';
import { collect, streamProblems } from '@kiln/domain/testing';
import { drive, starterFiles } from './testing/drive-assistant.js';
import { parseEdits, splitClauses } from './edit-intent.js';
import { guessKind, parseAppSpec } from './intent.js';
import { OFFLINE_CAPABILITIES_ANSWER, OfflineAiAssistant } from './offline-assistant.adapter.js';
import { readRequest } from './offline-request.js';
import { editsBetween } from './operations.js';

const assistant = new OfflineAiAssistant();
const starter = starterFiles();
const asInput = (files: ReadonlyMap<string, string>) => [...files].map(([path, content]) => ({ path, content }));

describe('reading requests', () => {
  it.each([
    ['Build a landing page for my yoga studio', 'landing'],
    ['a todo list app', 'todo'],
    ['Create an analytics dashboard', 'dashboard'],
    ['I want a blog about gardening', 'blog'],
    ['My personal portfolio website', 'portfolio'],
    ['A tip calculator', 'calculator'],
    ['A contact form', 'contact-form'],
    ['A sign up form for my newsletter', 'signup-form'],
    ['A pricing page with three tiers', 'pricing'],
    ['A note-taking app', 'notes'],
    ['A recipe book', 'recipes'],
    ['A weather widget', 'weather'],
    ['A kanban board', 'kanban'],
    ['A budget app to track my expenses', 'expenses'],
    ['An online shop for sneakers', 'store'],
    ['A website for a coffee shop', 'landing'],
    ['A habit tracker called Streaks', 'habits'],
  ])('%s → %s', (prompt, kind) => {
    expect(guessKind(prompt).kind).toBe(kind);
  });

  it('takes the name, subject, colours, sections and theme from the prompt', () => {
    const spec = parseAppSpec('Build a landing page for a bakery called “Crumb & Co” with testimonials, an FAQ and a contact section. Use orange, dark mode, serif font', 7);
    expect(spec).toMatchObject({
      kind: 'landing',
      name: 'Crumb & Co',
      subject: 'bakery',
      sections: ['testimonials', 'faq', 'contact'],
      theme: { primary: '#c2410c', dark: true, font: 'serif' },
      themed: true,
      seed: 7,
    });
    expect(parseAppSpec('A blog about hiking', 1)).toMatchObject({ name: 'Hiking Journal', sections: [] });
    expect(parseAppSpec('a dashboard', 1).name).toBe('Dashboard');
  });

  it('splits change requests into clauses, keeping quoted text and names with "and" whole', () => {
    expect(splitClauses('Change the title to "Salt and Pepper" and make it dark. Add a FAQ')).toEqual(['Change the title to "Salt and Pepper"', 'make it dark', 'Add a FAQ']);
    expect(parseEdits('Rename the app to Salt and Pepper').intents).toEqual([{ type: 'rename', name: 'Salt and Pepper' }]);
    expect(parseEdits('use green as the primary colour and remove the testimonials, then add an about page').intents).toEqual([
      { type: 'theme', primary: '#15803d' },
      { type: 'remove-section', section: 'testimonials' },
      { type: 'add-page', name: 'About', path: '/about', component: 'AboutPage' },
    ]);
    expect(parseEdits('change the "Sign up" button to "Join now"').intents).toEqual([{ type: 'button', from: 'Sign up', to: 'Join now' }]);
    expect(parseEdits('make the background black').intents).toEqual([{ type: 'theme', background: '#111827' }]);
    expect(parseEdits('tell me a joke').unknown).toEqual(['tell me a joke']);
    // "a page called X" names the page X (not "a"), with or without "new".
    for (const prompt of ['Add a page called Team', 'Add a new page called Team', 'Add a Team page']) {
      expect(parseEdits(prompt).intents).toEqual([{ type: 'add-page', name: 'Team', path: '/team', component: 'TeamPage' }]);
    }
    expect(parseEdits('Add a page called Pricing').intents).toEqual([{ type: 'add-page', name: 'Pricing', path: '/pricing', component: 'PricingPage' }]);
  });
});

describe('reading a first request on a fresh project', () => {
  it.each([
    ['A habit tracker called Streaks with a dark theme', 'habits', 'Streaks'],
    ['A game called Snake in green', 'landing', 'Snake'],
    ['Something called Orbit with a dark theme', 'landing', 'Orbit'],
  ])('%s builds an app (the changes it mentions are part of it)', (prompt, kind, name) => {
    const request = readRequest(prompt, starter);
    expect(request.mode).toBe('build');
    if (request.mode !== 'build') return;
    expect(request.spec).toMatchObject({ kind, name });
  });

  it('still reads plain change requests on the starter as edits, and app descriptions on a built app as edits when they start with a change', () => {
    expect(readRequest('Make it dark', starter).mode).toBe('edit');
    expect(readRequest('Change the heading to Hello there', starter).mode).toBe('edit');
    expect(readRequest('Add a calculator page', starter).mode).toBe('edit');
    const built = new Map(starter).set('src/site.ts', "export const site = { name: 'Streaks' };\n");
    expect(readRequest('Use a dark theme for the app', built).mode).toBe('edit');
  });

  it('builds the dark habit tracker for real', async () => {
    const result = await drive(assistant, 'A habit tracker called Streaks with a dark theme', starter);
    expect(result.plan.kind).toBe('build');
    expect(result.files.get('src/site.ts')).toContain("name: 'Streaks'");
    expect(result.files.get('src/index.css')).toContain('color-scheme: dark;');
  });
});

describe('OfflineAiAssistant', () => {
  it('plans a build as 2–4 tasks of one module, then done', async () => {
    const events = await collect(assistant.plan({ prompt: 'Build a portfolio for a designer with a pricing section, in teal', tree: [...starter.keys()], files: asInput(starter), history: [] }));
    expect(streamProblems(events)).toEqual([]);
    expect(events.map((e) => e.type)).toEqual(['module', 'task', 'task', 'task', 'task', 'usage', 'done']);
    const done = events.at(-1);
    expect(done?.type === 'done' && done.plan.tasks.map((t) => t.id)).toEqual(['offline:build:layout', 'offline:build:core', 'offline:build:sections', 'offline:build:theme']);
  });

  it('is deterministic: the same request gives the same operations, and different requests different apps', async () => {
    const a = await drive(new OfflineAiAssistant(), 'Make a kanban board for my design team', starter);
    const b = await drive(new OfflineAiAssistant(), 'Make a kanban board for my design team', starter);
    expect(a.operations).toEqual(b.operations);
    const c = await drive(assistant, 'Make a calculator', starter);
    expect([...c.files.keys()].sort()).not.toEqual([...a.files.keys()].sort());
    expect(c.files.get('src/site.ts')).toContain("name: 'Calculator'");
  });

  it('runs a whole build as one task when there is no plan, and every stream is well formed', async () => {
    const events = await collect(assistant.runTask({ prompt: 'A weather widget for Oslo', tree: [...starter.keys()], files: asInput(starter), history: [] }));
    expect(streamProblems(events)).toEqual([]);
    const operations = events.flatMap((e) => (e.type === 'operation' ? [e.operation] : []));
    const applied = applyOperations(starter, operations);
    expect(applied.ok && applied.value.files.get('src/weather.ts')).toContain("name: 'Oslo'");
    expect(events.filter((e) => e.type === 'text').length).toBeGreaterThan(1);
  });

  it('edits with small search-and-replace operations whose search text occurs once', async () => {
    const { files } = await drive(assistant, 'A landing page for a gym called Iron Hall', starter);
    const edit = await drive(assistant, 'Rename the app to Steel Hall and use red as the primary colour', files);
    expect(edit.plan.kind).toBe('edit');
    expect(edit.plan.tasks).toHaveLength(1);
    expect(edit.operations.every((o) => o.type === 'edit_file')).toBe(true);
    for (const op of edit.operations as Extract<FileOperation, { type: 'edit_file' }>[]) expect(op.search.length).toBeLessThan(600);
    expect(edit.files.get('src/site.ts')).toContain("name: 'Steel Hall'");
    expect(edit.files.get('src/index.css')).toContain('--primary: #dc2626;');
    expect(edit.text).toContain('Renamed the app to “Steel Hall”');
  });

  it('answers with the whole file when asked for it after a failed edit', async () => {
    const { files } = await drive(assistant, 'A landing page for a gym called Iron Hall', starter);
    const events = await collect(assistant.runTask({ prompt: 'Rename the app to Steel Hall', tree: [...files.keys()], files: asInput(files), history: [], needFullFile: 'src/site.ts' }));
    const ops = events.flatMap((e) => (e.type === 'operation' ? [e.operation] : []));
    expect(ops.find((o) => 'path' in o && o.path === 'src/site.ts')).toMatchObject({ type: 'write_file' });
    expect(ops.find((o) => 'path' in o && o.path === 'index.html')).toMatchObject({ type: 'edit_file' });
  });

  it('says what it cannot do instead of guessing', async () => {
    const { files } = await drive(assistant, 'A todo list app', starter);
    const plan = await collect(assistant.plan({ prompt: 'Connect it to my Salesforce account', tree: [...files.keys()], files: asInput(files), history: [] }));
    // Planning declines (a turn then ends before any credit is charged), saying what it can do.
    expect(plan).toEqual([{ type: 'error', error: { code: 'AI.DECLINED', message: expect.stringContaining('Configure an AI provider') } }]);
    const run = await collect(assistant.runTask({ prompt: 'Connect it to my Salesforce account', tree: [...files.keys()], files: asInput(files), history: [] }));
    expect(run.some((e) => e.type === 'operation')).toBe(false);
    expect(run.map((e) => (e.type === 'text' ? e.text : '')).join('')).toContain('Configure an AI provider');
    const missing = await drive(assistant, 'Remove the pricing section', files);
    expect(missing.operations).toEqual([]);
    expect(missing.text).toContain('There is no Pricing section to remove.');
  });

  it('does not pretend to repair errors, and stops when aborted', async () => {
    const repair = await collect(
      assistant.runTask({ prompt: 'fix it', tree: [], files: [], history: [], previousErrors: [{ file: 'src/App.tsx', line: 3, column: 1, message: 'Cannot find name x', severity: 'error' }] }),
    );
    expect(repair.some((e) => e.type === 'operation')).toBe(false);
    expect(streamProblems(repair)).toEqual([]);
    const controller = new AbortController();
    controller.abort();
    const aborted: AssistantEvent[] = await collect(assistant.runTask({ prompt: 'A blog', tree: [], files: [], history: [], signal: controller.signal }));
    expect(aborted).toEqual([{ type: 'error', error: { code: 'AI.ABORTED', message: 'The request was cancelled.' } }]);
  });

  it('summarizes a conversation and enhances prompts deterministically', async () => {
    const summary = await assistant.summarize(
      [
        { role: 'user', content: 'Build a blog about hiking. Make it nice.' },
        { role: 'assistant', content: 'Done: the blog has four posts. Anything else?' },
        { role: 'user', content: 'Make it dark.' },
      ],
      { instruction: 'the theme' },
    );
    expect(summary).toBe('Focus: the theme\nFirst request: Build a blog about hiking.\nLater requests:\n- Make it dark.\nLast reply: Done: the blog has four posts.');
    const enhanced = await assistant.enhancePrompt('landing page for my bakery with an faq, green', 'react-vite');
    expect(enhanced).toContain('Start from the “react-vite” template.');
    expect(enhanced).toContain('Build a landing page called “Bakery” for bakery.');
    expect(enhanced).toContain('FAQ');
    expect(enhanced).toContain('#15803d as the primary colour');
    expect(await assistant.enhancePrompt('make it dark')).toBe('In the current app, switch to a dark theme. Keep everything else as it is.');
  });
});

describe('OfflineAiAssistant.complete', () => {
  const ask = async (question: string, over: Partial<CompletionInput> = {}) => {
    const messages: AiMessage[] = [
      { role: 'user', content: 'Hello' },
      { role: 'assistant', content: 'Hi! What shall we build?' },
      { role: 'user', content: question },
    ];
    const events: CompletionEvent[] = await collect(assistant.complete({ messages, ...over }));
    return { events, text: events.map((e) => (e.type === 'text' ? e.text : '')).join('') };
  };

  it('lists the app kinds and the edits it supports when asked what it can do', async () => {
    const { events, text } = await ask('What can you build?');
    expect(streamProblems(events)).toEqual([]);
    expect(events.filter((e) => e.type === 'text').length).toBeGreaterThan(1);
    expect(events.slice(-2)).toEqual([
      { type: 'usage', usage: { inputTokens: 0, outputTokens: 0 } },
      { type: 'done', finishReason: 'stop' },
    ]);
    expect(text).toBe(OFFLINE_CAPABILITIES_ANSWER);
    expect(text).toContain('offline assistant');
    for (const words of ['landing page', 'kanban board', 'online store']) expect(text).toContain(words);
    for (const edit of ['rename it', 'dark or light theme', 'FAQ', 'add a page']) expect(text).toContain(edit);
    expect((await ask('help')).text).toBe(OFFLINE_CAPABILITIES_ANSWER);
  });

  it('describes the plan it would make for a build request, as its planner does', async () => {
    const prompt = 'Build a kanban board for my design team';
    const { events, text } = await ask(prompt);
    expect(streamProblems(events)).toEqual([]);
    const plan = await collect(assistant.plan({ prompt, tree: [...starter.keys()], files: asInput(starter), history: [] }));
    const done = plan.at(-1);
    const tasks = done?.type === 'done' ? done.plan.tasks : [];
    expect(tasks.length).toBeGreaterThan(1);
    expect(text).toMatch(/^I would build .+, a kanban board, in \d steps:/);
    for (const task of tasks) expect(text).toContain(task.title);
  });

  it('describes the changes it would make for an edit request', async () => {
    const { text } = await ask('Rename the app to Steel Hall and make it dark');
    expect(text).toContain('In the current app I would rename the app to “Steel Hall”; switch to a dark theme.');
  });

  it('says plainly that it cannot converse about anything else', async () => {
    for (const question of ['What is the capital of France?', 'Tell me a joke', 'Connect it to my Salesforce account']) {
      const { events, text } = await ask(question);
      expect(streamProblems(events)).toEqual([]);
      expect(text).toContain('offline assistant and my conversation abilities are limited');
    }
  });

  it('is deterministic, answers JSON { answer } when asked, and stops when aborted', async () => {
    expect((await ask('A blog about hiking')).text).toBe((await ask('A blog about hiking')).text);
    const { events, text } = await ask('What can you do?', { responseFormat: 'json', temperature: 1.5, maxTokens: 10 });
    expect(streamProblems(events)).toEqual([]);
    expect(JSON.parse(text)).toEqual({ answer: OFFLINE_CAPABILITIES_ANSWER });
    const controller = new AbortController();
    controller.abort();
    expect((await ask('What can you do?', { signal: controller.signal })).events).toEqual([{ type: 'error', error: { code: 'AI.ABORTED', message: 'The request was cancelled.' } }]);
  });
});

describe('editsBetween', () => {
  it('makes unique search-and-replace edits that reproduce the new text, or gives up', () => {
    const lines = Array.from({ length: 20 }, (_, i) => `line ${i}`);
    // 'x' occurs twice: the edit needs a line of context to be unique.
    const before = [...lines.slice(0, 10), 'x', 'c', 'x', ...lines.slice(10)].join('\n');
    const after = [...lines.slice(0, 10), 'y', 'c', 'x', ...lines.slice(10)].join('\n');
    const edits = editsBetween('f.ts', before, after);
    expect(edits).not.toBeNull();
    const applied = applyOperations(new Map([['f.ts', before]]), edits ?? []);
    expect(applied.ok && applied.value.files.get('f.ts')).toBe(after);
    expect(edits).toEqual([{ type: 'edit_file', path: 'f.ts', search: 'line 9\nx', replace: 'line 9\ny' }]);
    // Rewriting most of a small file is clearer as the whole file.
    expect(editsBetween('f.ts', 'one', 'two')).toBeNull();
  });
});
