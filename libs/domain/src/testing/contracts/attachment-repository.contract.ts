import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Attachment } from '../../attachments/attachment.entity.js';
import type { AttachmentRepository } from '../../attachments/attachment-repository.port.js';

export interface AttachmentRepositoryHarness {
  readonly repository: AttachmentRepository;
  /** A project id the repository accepts (a real project row for SQL adapters), new each call. */
  newProject(): Promise<{ readonly projectId: string; readonly userId: string }>;
  /** A new attachment id (a UUID for SQL adapters). */
  newId(): string;
  close?(): Promise<void>;
}

/**
 * The AttachmentRepository contract (issue 18 item 3): a row comes back whole, only through its
 * own project; file names are found per project; a project's rows are deleted together and no
 * other project's are.
 */
export function attachmentRepositoryContract(name: string, makeHarness: () => Promise<AttachmentRepositoryHarness>): void {
  describe(`AttachmentRepository contract: ${name}`, () => {
    let h: AttachmentRepositoryHarness;
    beforeAll(async () => {
      h = await makeHarness();
    }, 60_000);
    afterAll(async () => {
      await h?.close?.();
    }, 60_000);

    const attachment = (project: { projectId: string; userId: string }, fileName: string, over: Partial<Attachment> = {}): Attachment => ({
      id: h.newId(),
      projectId: project.projectId,
      userId: project.userId,
      name: 'Logo “final”.png',
      fileName,
      contentType: 'image/png',
      size: 1234,
      createdAt: new Date('2026-01-02T03:04:05.000Z'),
      ...over,
    });

    it('answers a recorded attachment whole, by id and by file name', async () => {
      const project = await h.newProject();
      const a = attachment(project, 'logo-00000001.png');
      await h.repository.add(a);
      expect(await h.repository.find(project.projectId, a.id)).toEqual(a);
      expect(await h.repository.findByFileName(project.projectId, a.fileName)).toEqual(a);
    });

    it('never answers another project’s attachment', async () => {
      const mine = await h.newProject();
      const theirs = await h.newProject();
      const a = attachment(theirs, 'secret-00000002.pdf', { contentType: 'application/pdf', name: 'secret.pdf' });
      await h.repository.add(a);
      expect(await h.repository.find(mine.projectId, a.id)).toBeNull();
      expect(await h.repository.findByFileName(mine.projectId, a.fileName)).toBeNull();
      expect(await h.repository.find(theirs.projectId, h.newId())).toBeNull();
    });

    it('deletes a project’s attachments and only those', async () => {
      const gone = await h.newProject();
      const kept = await h.newProject();
      await h.repository.add(attachment(gone, 'a-00000003.png'));
      await h.repository.add(attachment(gone, 'b-00000004.svg', { contentType: 'image/svg+xml' }));
      const other = attachment(kept, 'a-00000005.png');
      await h.repository.add(other);
      expect(await h.repository.countByProject(gone.projectId)).toBe(2);
      expect(await h.repository.deleteByProject(gone.projectId)).toBe(2);
      expect(await h.repository.countByProject(gone.projectId)).toBe(0);
      expect(await h.repository.countByProject(kept.projectId)).toBe(1);
      expect(await h.repository.findByFileName(gone.projectId, 'a-00000003.png')).toBeNull();
      expect(await h.repository.find(kept.projectId, other.id)).toEqual(other);
      expect(await h.repository.deleteByProject(gone.projectId)).toBe(0);
    });

    it('refuses a second row with the same file name in a project', async () => {
      const project = await h.newProject();
      await h.repository.add(attachment(project, 'same-00000006.png'));
      await expect(h.repository.add(attachment(project, 'same-00000006.png'))).rejects.toThrow();
    });
  });
}
