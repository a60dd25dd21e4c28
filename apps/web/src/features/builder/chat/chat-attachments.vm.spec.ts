// Files attached to the chat (issue 18 item 3; SPEC §3 project store "pending files"): checked and
// uploaded as they are added, kept per project until sent, refused in words, carried by the
// message (ids to the API, a line each in the conversation).
import { describe, expect, it } from '@jest/globals';
import { ApiError } from '../../../app/ports';
import { ManualTimers } from '../../../testing/auth-fakes';
import { FakeUsageApi } from '../../../testing/billing-fakes';
import { FakeToasts, RecordingLogger } from '../../../testing/ui-fakes';
import type { AttachmentDto, AttachmentsApi } from '../../../api/attachments.api';
import { SequentialIds } from '../builder.fakes';
import { messagesFromHistory } from './chat-messages';
import { FakeAiApi, FakeChatHost, MemoryChatPreferences } from './chat.fakes';
import { ChatVm } from './chat.vm';
import { type FilePreviews, PendingFilesStore, TOO_MANY, tooBig, wrongType } from './pending-files.store';

const settle = async () => {
  for (let i = 0; i < 20; i += 1) await new Promise((resolve) => setImmediate(resolve));
};

class FakeAttachmentsApi implements AttachmentsApi {
  readonly uploads: { projectId: string; name: string; type: string; size: number }[] = [];
  refuse: ApiError | null = null;
  private release: (() => void) | null = null;
  hold = false;

  async upload(projectId: string, file: Blob, name: string): Promise<AttachmentDto> {
    this.uploads.push({ projectId, name, type: file.type, size: file.size });
    if (this.hold) await new Promise<void>((resolve) => (this.release = resolve));
    if (this.refuse) throw this.refuse;
    const n = this.uploads.length;
    const base = name.replace(/\..*$/, '').toLowerCase();
    const ext = file.type === 'image/png' ? 'png' : 'txt';
    return { id: `00000000-0000-4000-8000-00000000000${n}`, name, file_name: `${base}-0000000${n}.${ext}`, path: `/attachments/${base}-0000000${n}.${ext}`, content_type: file.type, size: file.size, created_at: '2026-11-27T00:00:00Z' };
  }

  finish(): void {
    this.release?.();
    this.release = null;
  }
}

class CountingPreviews implements FilePreviews {
  live = new Set<string>();
  private n = 0;
  create(): string {
    const url = `blob:preview-${++this.n}`;
    this.live.add(url);
    return url;
  }
  revoke(url: string): void {
    this.live.delete(url);
  }
}

const png = (name = 'logo.png', size = 16) => new File([new Uint8Array(size)], name, { type: 'image/png' });

async function opened() {
  const ai = new FakeAiApi();
  const api = new FakeAttachmentsApi();
  const previews = new CountingPreviews();
  const files = new PendingFilesStore(api, new SequentialIds(), previews);
  const prompts = { get: () => null, set: () => undefined, remove: () => undefined };
  const vm = new ChatVm(ai, new FakeUsageApi(), { openFor: () => true }, prompts, new MemoryChatPreferences(), new ManualTimers(0), new FakeToasts(), new SequentialIds(), new RecordingLogger(), files);
  await vm.start('p1', new FakeChatHost());
  await settle();
  return { vm, ai, api, files, previews };
}

describe('pending files in the composer', () => {
  it('uploads an added image at once and shows it with a thumbnail until it is removed', async () => {
    const t = await opened();
    await t.files.add('p1', [png()]);
    const [file] = t.files.filesOf('p1');
    expect(file).toMatchObject({ name: 'logo.png', type: 'image/png', state: 'ready', error: null, previewUrl: 'blob:preview-1' });
    expect(t.api.uploads).toEqual([{ projectId: 'p1', name: 'logo.png', type: 'image/png', size: 16 }]);
    t.files.remove('p1', file?.id ?? '');
    expect(t.files.filesOf('p1')).toEqual([]);
    expect(t.previews.live.size).toBe(0);
  });

  it('keeps each project’s files apart (the project store is keyed by project)', async () => {
    const t = await opened();
    await t.files.add('p1', [png('a.png')]);
    await t.files.add('p2', [png('b.png')]);
    expect(t.files.filesOf('p1').map((f) => f.name)).toEqual(['a.png']);
    expect(t.files.filesOf('p2').map((f) => f.name)).toEqual(['b.png']);
  });

  it('refuses in words, before uploading, a file too big or of another type; a file named .md goes as Markdown', async () => {
    const t = await opened();
    const big = new File([new Uint8Array(10 * 1024 * 1024 + 1)], 'huge.png', { type: 'image/png' });
    const exe = new File([new Uint8Array(4)], 'setup.exe', { type: 'application/x-msdownload' });
    const notes = new File(['# Brand'], 'notes.md', { type: '' });
    await t.files.add('p1', [big, exe, notes]);
    expect(t.files.filesOf('p1').map((f) => [f.name, f.state, f.error])).toEqual([
      ['huge.png', 'failed', tooBig('huge.png')],
      ['setup.exe', 'failed', wrongType('setup.exe')],
      ['notes.md', 'ready', null],
    ]);
    expect(tooBig('huge.png')).toBe('“huge.png” is too big: a file may be at most 10 MB.');
    expect(t.api.uploads.map((u) => [u.name, u.type])).toEqual([['notes.md', 'text/markdown']]);
  });

  it('says what the server refused, in words, and how many files a message carries', async () => {
    const t = await opened();
    t.api.refuse = new ApiError('The file is not a PNG file.', 415, 'ATTACHMENTS.UNSUPPORTED_TYPE', null);
    await t.files.add('p1', [png('fake.png')]);
    expect(t.files.filesOf('p1')[0]?.error).toBe('“fake.png”: The file is not a PNG file.');
    t.api.refuse = new ApiError('Files cannot be stored right now.', 503, 'ATTACHMENTS.STORE_UNAVAILABLE', null);
    await t.files.add('p1', [png('later.png')]);
    expect(t.files.filesOf('p1')[1]?.error).toMatch(/could not be stored right now/);
    t.api.refuse = null;
    await t.files.add('p1', Array.from({ length: 11 }, (_, i) => png(`f${i}.png`)));
    expect(t.files.filesOf('p1').at(-1)?.error).toBe(TOO_MANY);
  });
});

describe('ChatVm with attached files', () => {
  it('waits for uploads, then sends the ids with the message, shows the files under it, and empties the list', async () => {
    const t = await opened();
    t.api.hold = true;
    const adding = t.files.add('p1', [png()]);
    t.vm.setInput('use this as the logo');
    expect(t.vm.canSend).toBe(false);
    t.api.finish();
    await adding;
    expect(t.vm.canSend).toBe(true);
    t.vm.send();
    await settle();
    expect(t.ai.turns[0]?.input).toMatchObject({ message: 'use this as the logo', attachmentIds: ['00000000-0000-4000-8000-000000000001'] });
    const user = t.vm.messages.find((m) => m.kind === 'user');
    expect(user).toMatchObject({ text: 'use this as the logo', attachments: [{ path: '/attachments/logo-00000001.png', name: 'logo.png', contentType: 'image/png' }] });
    expect(t.files.filesOf('p1')).toEqual([]);
    expect(t.previews.live.size).toBe(0);
  });

  it('a message without files sends none, and a reloaded chat shows a message’s files apart from its words', async () => {
    const t = await opened();
    t.vm.setInput('add a footer');
    t.vm.send();
    await settle();
    expect(t.ai.turns[0]?.input.attachmentIds).toEqual([]);
    const [user] = messagesFromHistory([
      { id: 't1', message: 'use this as the logo\n\n[Attached image: /attachments/logo-1a2b3c4d.png (image/png) “logo.png”]', status: 'kept', reply: '', plan: null, outcome: null, created_at: '2026-11-26T10:00:00Z', commit_hash: null, failure_code: null },
    ]);
    expect(user).toMatchObject({ text: 'use this as the logo', attachments: [{ fileName: 'logo-1a2b3c4d.png', name: 'logo.png' }] });
  });
});
