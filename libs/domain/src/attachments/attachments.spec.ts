// Issue 18 item 3: files attached to prompts — checked, stored (bytes first, then the row), read
// back by their owner only, deleted with the project, and named on the message's lines.
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { appendSelectedElement, splitSelectedElement } from '../ai/selected-element.js';
import { OwnedProjects } from '../projects/owned-projects.js';
import { newProject } from '../projects/project.entity.js';
import { FixedClock } from '../testing/fixed-clock.js';
import { InMemoryAttachmentRepository } from '../testing/in-memory-attachment-repository.js';
import { InMemoryObjectStore } from '../testing/in-memory-object-store.js';
import { InMemoryProjectRepository } from '../testing/in-memory-project-repository.js';
import { SequentialIds } from '../testing/sequential-ids.js';
import { ATTACHMENT_MAX_BYTES, attachmentFileName, attachmentObjectKey, bytesMatchType, cleanAttachmentName, createAttachment } from './attachment.entity.js';
import { appendAttachments, attachmentsOf, splitAttachments } from './attachment-lines.js';
import { AttachmentsForTurns } from './attachments-for-turns.js';
import { GetAttachment, RemoveProjectAttachments, UploadAttachment } from './attachments.use-cases.js';

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
const ascii = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));
const SVG = ascii('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>');

async function setup() {
  const clock = new FixedClock();
  const projects = new InMemoryProjectRepository();
  await projects.insert(newProject({ id: 'p-1', creatorId: 'ana', name: 'Pantry' }, clock.now()));
  await projects.insert(newProject({ id: 'p-2', creatorId: 'bo', name: 'Other' }, clock.now()));
  const owned = new OwnedProjects(projects, clock);
  const repository = new InMemoryAttachmentRepository();
  const store = new InMemoryObjectStore();
  return {
    repository,
    store,
    upload: new UploadAttachment(owned, repository, store, new SequentialIds('att'), clock),
    get: new GetAttachment(owned, repository, store),
    remove: new RemoveProjectAttachments(repository, store),
    forTurns: new AttachmentsForTurns(repository, store),
  };
}

describe('an attachment', () => {
  it('is an image, text or PDF whose bytes match its type, at most 10 MiB and not empty', () => {
    const at = { id: 'a1b2c3d4-0000-4000-8000-00000000abcd', now: new Date(0) };
    const base = { projectId: 'p', userId: 'u', name: 'My Logo.PNG' };
    const made = createAttachment({ ...base, contentType: 'image/png', bytes: PNG }, at);
    expect(made.ok && made.value).toMatchObject({ name: 'My Logo.PNG', fileName: 'my-logo-0000abcd.png', contentType: 'image/png', size: PNG.length });
    expect(createAttachment({ ...base, contentType: 'image/png', bytes: new Uint8Array(ATTACHMENT_MAX_BYTES + 1) }, at)).toMatchObject({ ok: false, error: { code: 'ATTACHMENTS.TOO_LARGE' } });
    expect(createAttachment({ ...base, contentType: 'application/x-msdownload', bytes: PNG }, at)).toMatchObject({ ok: false, error: { code: 'ATTACHMENTS.UNSUPPORTED_TYPE' } });
    expect(createAttachment({ ...base, contentType: 'image/jpeg', bytes: PNG }, at)).toMatchObject({ ok: false, error: { code: 'ATTACHMENTS.UNSUPPORTED_TYPE' } });
    expect(createAttachment({ ...base, contentType: 'image/png', bytes: new Uint8Array(0) }, at)).toMatchObject({ ok: false, error: { code: 'ATTACHMENTS.INVALID' } });
    expect(createAttachment({ ...base, name: '../..', contentType: 'image/png', bytes: PNG }, at)).toMatchObject({ ok: false, error: { code: 'ATTACHMENTS.INVALID' } });
    expect(createAttachment({ ...base, name: 'x.svg', contentType: 'image/svg+xml; charset=utf-8', bytes: SVG }, at).ok).toBe(true);
    expect(createAttachment({ ...base, name: 'notes.txt', contentType: 'text/plain', bytes: Uint8Array.from([0x61, 0, 0x62]) }, at).ok).toBe(false);
  });

  it('gets a safe name whatever the browser sent', () => {
    expect(cleanAttachmentName('C:\\Users\\ana\\logo.png')).toBe('logo.png');
    expect(cleanAttachmentName('../../etc/passwd')).toBe('passwd');
    expect(cleanAttachmentName('a\u202egnp.exe')).toBe('agnp.exe');
    expect(cleanAttachmentName('<img src=x onerror=alert(1)>.png')).toBe('img src=x onerror=alert(1).png');
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), fc.constantFrom('image/png', 'image/svg+xml', 'application/pdf'), (raw, type) => {
        const name = cleanAttachmentName(raw) ?? 'file';
        const fileName = attachmentFileName(name, 'id-7', type);
        expect(fileName).toMatch(/^[a-z0-9][a-z0-9-]{0,50}\.(png|svg|pdf)$/);
        expect(name.length).toBeLessThanOrEqual(100);
        expect(name).not.toMatch(/[\/\\<>\u0000-\u001f]/);
      }),
    );
  });

  it('recognises the bytes of each image type', () => {
    expect(bytesMatchType(ascii('GIF89a....'), 'image/gif')).toBe(true);
    expect(bytesMatchType(ascii('RIFF0000WEBPVP8 '), 'image/webp')).toBe(true);
    expect(bytesMatchType(Uint8Array.from([0xff, 0xd8, 0xff, 0xe0]), 'image/jpeg')).toBe(true);
    expect(bytesMatchType(ascii('%PDF-1.7'), 'application/pdf')).toBe(true);
    expect(bytesMatchType(ascii('<html><body>hi</body></html>'), 'image/svg+xml')).toBe(false);
  });
});

describe('uploading and reading attachments', () => {
  it('stores the bytes under the project, records the row, and gives them back to the owner only', async () => {
    const s = await setup();
    const up = await s.upload.execute({ projectId: 'p-1', userId: 'ana', name: 'logo.png', contentType: 'image/png', bytes: PNG });
    if (!up.ok) throw new Error(up.error.code);
    expect(up.value.fileName).toBe('logo-att1.png');
    expect((await s.store.get(attachmentObjectKey('p-1', up.value.id)))?.contentType).toBe('image/png');
    const got = await s.get.execute({ userId: 'ana', projectId: 'p-1', id: up.value.id });
    expect(got.ok && Array.from(got.value.bytes)).toEqual(Array.from(PNG));
    expect(await s.get.execute({ userId: 'bo', projectId: 'p-1', id: up.value.id })).toMatchObject({ ok: false, error: { code: 'PROJECTS.NOT_FOUND' } });
    expect(await s.get.execute({ userId: 'bo', projectId: 'p-2', id: up.value.id })).toMatchObject({ ok: false, error: { code: 'ATTACHMENTS.NOT_FOUND' } });
    expect(await s.upload.execute({ projectId: 'p-1', userId: 'bo', name: 'x.png', contentType: 'image/png', bytes: PNG })).toMatchObject({ ok: false, error: { code: 'PROJECTS.NOT_FOUND' } });
  });

  it('answers 503’s error when the store is down, and records nothing', async () => {
    const s = await setup();
    s.store.down = true;
    expect(await s.upload.execute({ projectId: 'p-1', userId: 'ana', name: 'logo.png', contentType: 'image/png', bytes: PNG })).toMatchObject({ ok: false, error: { code: 'ATTACHMENTS.STORE_UNAVAILABLE' } });
    expect(await s.repository.findByFileName('p-1', 'logo-att1.png')).toBeNull();
  });

  it('leaves no bytes behind when the row cannot be written', async () => {
    const s = await setup();
    s.repository.down = true;
    await expect(s.upload.execute({ projectId: 'p-1', userId: 'ana', name: 'logo.png', contentType: 'image/png', bytes: PNG })).rejects.toThrow();
    expect(await s.store.get(attachmentObjectKey('p-1', 'att-1'))).toBeNull();
  });

  it('deletes a project’s attachments, bytes and rows, and no other project’s', async () => {
    const s = await setup();
    const mine = await s.upload.execute({ projectId: 'p-1', userId: 'ana', name: 'a.png', contentType: 'image/png', bytes: PNG });
    const theirs = await s.upload.execute({ projectId: 'p-2', userId: 'bo', name: 'b.png', contentType: 'image/png', bytes: PNG });
    if (!mine.ok || !theirs.ok) throw new Error('upload failed');
    expect(await s.remove.removeFor('p-1')).toEqual({ ok: true, value: undefined });
    expect(await s.store.get(attachmentObjectKey('p-1', mine.value.id))).toBeNull();
    expect(await s.repository.find('p-1', mine.value.id)).toBeNull();
    expect(await s.repository.find('p-2', theirs.value.id)).not.toBeNull();
    s.store.down = true;
    expect(await s.remove.removeFor('p-2')).toMatchObject({ ok: false, error: { code: 'ATTACHMENTS.STORE_UNAVAILABLE' } });
    expect(await s.repository.find('p-2', theirs.value.id)).not.toBeNull();
  });
});

describe('attachments on a message', () => {
  const logo = { path: '/attachments/logo-att1.png', fileName: 'logo-att1.png', contentType: 'image/png', name: 'logo.png' };
  const brief = { path: '/attachments/brief-att2.pdf', fileName: 'brief-att2.pdf', contentType: 'application/pdf', name: 'brief.pdf' };

  it('travel as lines after the words and before a selected element', () => {
    const message = appendAttachments('use this as the logo', [logo, brief]);
    expect(message).toBe('use this as the logo\n\n[Attached image: /attachments/logo-att1.png (image/png) “logo.png”]\n[Attached file: /attachments/brief-att2.pdf (application/pdf) “brief.pdf”]');
    expect(splitAttachments(message)).toEqual({ words: 'use this as the logo', attachments: [logo, brief] });
    const picked = appendAttachments(appendSelectedElement('put this here', { tag: 'h1', text: 'Pantry', selector: '' }), [logo]);
    expect(splitSelectedElement(picked).element?.text).toBe('Pantry');
    expect(attachmentsOf(picked)).toEqual([logo]);
    expect(attachmentsOf('no files here')).toEqual([]);
  });

  it('are checked to be the project’s when a turn takes them, and their bytes loaded by the lines', async () => {
    const s = await setup();
    const up = await s.upload.execute({ projectId: 'p-1', userId: 'ana', name: 'logo.png', contentType: 'image/png', bytes: PNG });
    if (!up.ok) throw new Error(up.error.code);
    expect(await s.forTurns.attach('p-2', 'hi', [up.value.id])).toMatchObject({ ok: false, error: { code: 'ATTACHMENTS.NOT_FOUND' } });
    const attached = await s.forTurns.attach('p-1', 'use this as the logo', [up.value.id, up.value.id]);
    if (!attached.ok) throw new Error(attached.error.code);
    expect(attachmentsOf(attached.value)).toHaveLength(1);
    const files = await s.forTurns.filesOf('p-1', attached.value);
    expect(files).toEqual([{ path: '/attachments/logo-att1.png', contentType: 'image/png', name: 'logo.png', bytes: PNG }]);
    // A line naming a file of another project (typed by hand) loads nothing.
    expect(await s.forTurns.filesOf('p-2', attached.value)).toEqual([]);
  });
});
