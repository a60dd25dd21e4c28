// Issue 18 item 3: attached images reach configured models as image inputs (AI SDK image parts,
// in each vendor's wire format), with a line saying where the file is in the project.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import type { AttachedFile, TaskInput } from '@kiln/domain';
import { collect } from '@kiln/domain/testing';
import { createAnthropicAssistant, createOpenAiCompatibleAssistant } from './providers.js';
import { anthropicStream, FakeVendorServer, openAiStream } from './testing/fake-vendor-server.js';

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);
const BASE64 = Buffer.from(PNG).toString('base64');
const LOGO: AttachedFile = { path: '/attachments/logo-1a2b3c4d.png', contentType: 'image/png', name: 'logo.png', bytes: PNG };
const NOTES: AttachedFile = { path: '/attachments/notes-1a2b3c4e.md', contentType: 'text/markdown', name: 'notes.md', bytes: Uint8Array.from(Buffer.from('# Brand\nWarm and friendly.')) };

const taskInput = (over: Partial<TaskInput> = {}): TaskInput => ({
  prompt: 'use this as the logo\n\n[Attached image: /attachments/logo-1a2b3c4d.png (image/png) “logo.png”]',
  tree: ['index.html', 'src/App.tsx'],
  files: [{ path: 'src/App.tsx', content: 'export default function App() { return null; }\n' }],
  history: [],
  ...over,
});

describe('attachments to configured models', () => {
  let server: FakeVendorServer;
  beforeAll(async () => {
    server = await FakeVendorServer.start();
  });
  beforeEach(() => {
    server.requests.length = 0;
  });
  afterAll(() => server.close());

  it('Anthropic gets the image as an image block and the text says where the file is', async () => {
    server.reply(anthropicStream([{ text: 'Adding the logo.' }]));
    const assistant = createAnthropicAssistant({ apiKey: 'sk-ant-test', model: 'claude-test-model', baseURL: `${server.url}/v1`, maxRetries: 0 });
    await collect(assistant.runTask(taskInput({ attachments: [LOGO, NOTES] })));
    const messages = server.requests[0]?.body['messages'] as { role: string; content: { type: string; text?: string; source?: Record<string, unknown> }[] }[];
    const last = messages.at(-1)?.content ?? [];
    expect(last[0]?.text).toContain('the file public/attachments/logo-1a2b3c4d.png, which the app reaches as /attachments/logo-1a2b3c4d.png');
    expect(last.find((p) => p.type === 'image')?.source).toEqual({ type: 'base64', media_type: 'image/png', data: BASE64 });
    expect(last.some((p) => p.type === 'text' && p.text?.includes('Warm and friendly.'))).toBe(true);
  });

  it('an OpenAI-compatible endpoint gets it as an image_url data URL', async () => {
    server.reply(openAiStream([{ text: 'Adding the logo.' }]));
    const assistant = createOpenAiCompatibleAssistant({ name: 'local', baseURL: `${server.url}/v1`, apiKey: 'sk-local', model: 'test-model', maxRetries: 0 });
    await collect(assistant.runTask(taskInput({ attachments: [LOGO] })));
    const messages = server.requests[0]?.body['messages'] as { role: string; content: string | { type: string; image_url?: { url: string } }[] }[];
    const last = messages.at(-1)?.content;
    expect(Array.isArray(last)).toBe(true);
    expect((last as { type: string; image_url?: { url: string } }[]).find((p) => p.type === 'image_url')?.image_url?.url).toBe(`data:image/png;base64,${BASE64}`);
  });

  it('a message without attachments is plain text, as before', async () => {
    server.reply(openAiStream([{ text: 'ok' }]));
    const assistant = createOpenAiCompatibleAssistant({ name: 'local', baseURL: `${server.url}/v1`, apiKey: 'sk-local', model: 'test-model', maxRetries: 0 });
    await collect(assistant.runTask(taskInput({ prompt: 'add a footer' })));
    const messages = server.requests[0]?.body['messages'] as { content: unknown }[];
    expect(typeof messages.at(-1)?.content).toBe('string');
  });
});
