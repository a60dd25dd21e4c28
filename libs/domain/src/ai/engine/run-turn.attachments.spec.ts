// Issue 18 item 3: a message may carry attachment ids. They become lines of the message, the
// files are written into the sandbox at public/attachments/ when the turn begins, and the
// assistant gets them (image bytes for configured models).
import { describe, expect, it } from '@jest/globals';
import { AttachmentsForTurns } from '../../attachments/attachments-for-turns.js';
import { UploadAttachment } from '../../attachments/attachments.use-cases.js';
import { OwnedProjects } from '../../projects/owned-projects.js';
import { InMemoryAttachmentRepository } from '../../testing/in-memory-attachment-repository.js';
import { InMemoryObjectStore } from '../../testing/in-memory-object-store.js';
import { SequentialIds } from '../../testing/sequential-ids.js';
import { RunTurn } from './run-turn.use-case.js';
import { collect, createTurnTestKit } from './testing/turn-test-kit.js';

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);

async function setup() {
  const t = await createTurnTestKit();
  t.scriptErrors([]);
  const repository = new InMemoryAttachmentRepository();
  const store = new InMemoryObjectStore();
  const upload = new UploadAttachment(new OwnedProjects(t.kit.projects, t.kit.clock), repository, store, new SequentialIds('att'), t.kit.clock);
  const runTurn = new RunTurn({ ...t.deps, attachments: new AttachmentsForTurns(repository, store) });
  const up = await upload.execute({ projectId: t.projectId, userId: t.userId, name: 'logo.png', contentType: 'image/png', bytes: PNG });
  if (!up.ok) throw new Error(up.error.code);
  return { t, runTurn, attachment: up.value, upload };
}

describe('a turn with attachments', () => {
  it('names them in the message, puts them in public/attachments/ and gives the assistant their bytes', async () => {
    const { t, runTurn, attachment } = await setup();
    t.assistant.answers.push({ text: 'done', operations: [] });
    const started = await runTurn.execute(t.input('use this as the logo', { attachmentIds: [attachment.id] }));
    if (!started.ok) throw new Error(started.error.code);
    await collect(started.value);
    const turn = (await t.turns.listByProject(t.projectId))[0];
    expect(turn?.message).toBe('use this as the logo\n\n[Attached image: /attachments/logo-att1.png (image/png) “logo.png”]');
    expect(Array.from(t.host.bytesOf(t.projectId, 'public/attachments/logo-att1.png') ?? [])).toEqual(Array.from(PNG));
    const expected = [{ path: '/attachments/logo-att1.png', contentType: 'image/png', name: 'logo.png', bytes: PNG }];
    expect(t.assistant.planInputs[0]?.attachments).toEqual(expected);
    expect(t.assistant.taskInputs[0]?.attachments).toEqual(expected);
  });

  it('refuses an id that is not the project’s before anything is stored or charged', async () => {
    const { t, runTurn } = await setup();
    const other = await t.addProject('project-2');
    const before = await t.credits();
    expect(await runTurn.execute(t.input('use this', { projectId: other, attachmentIds: ['att-1'] }))).toMatchObject({ ok: false, error: { code: 'ATTACHMENTS.NOT_FOUND' } });
    expect(await runTurn.execute(t.input('use this', { attachmentIds: ['nope'] }))).toMatchObject({ ok: false, error: { code: 'ATTACHMENTS.NOT_FOUND' } });
    expect(await t.turns.listByProject(t.projectId)).toEqual([]);
    expect(await t.credits()).toBe(before);
  });

  it('a message without attachments is as before, and a turn without the source refuses ids', async () => {
    const { t } = await setup();
    t.assistant.answers.push({ text: 'ok', operations: [] });
    const started = await t.runTurn.execute(t.input('add a footer'));
    if (!started.ok) throw new Error(started.error.code);
    await collect(started.value);
    expect(t.assistant.taskInputs[0]?.attachments).toBeUndefined();
    expect(await t.runTurn.execute(t.input('use this', { attachmentIds: ['att-1'] }))).toMatchObject({ ok: false, error: { code: 'VALIDATION_FAILED' } });
  });

  it('a retry with the same key and the same files replays the turn', async () => {
    const { t, runTurn, attachment } = await setup();
    t.assistant.answers.push({ text: 'done', operations: [] });
    const input = t.input('use this as the logo', { attachmentIds: [attachment.id] });
    const first = await runTurn.execute(input);
    if (!first.ok) throw new Error(first.error.code);
    await collect(first.value);
    const again = await runTurn.execute(input);
    expect(again.ok && again.value.turnId).toBe(first.value.turnId);
  });
});
