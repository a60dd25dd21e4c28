import type { Attachment } from '../attachments/attachment.entity.js';
import type { AttachmentRepository } from '../attachments/attachment-repository.port.js';

/** AttachmentRepository in memory; `down` makes every call reject as an unreachable database would. */
export class InMemoryAttachmentRepository implements AttachmentRepository {
  private readonly rows = new Map<string, Attachment>();
  down = false;

  async add(attachment: Attachment): Promise<void> {
    this.check();
    if (this.rows.has(attachment.id)) throw new Error(`Attachment ${attachment.id} exists`);
    if ([...this.rows.values()].some((a) => a.projectId === attachment.projectId && a.fileName === attachment.fileName)) throw new Error(`File name ${attachment.fileName} is taken`);
    this.rows.set(attachment.id, attachment);
  }

  async find(projectId: string, id: string): Promise<Attachment | null> {
    this.check();
    const found = this.rows.get(id);
    return found !== undefined && found.projectId === projectId ? found : null;
  }

  async findByFileName(projectId: string, fileName: string): Promise<Attachment | null> {
    this.check();
    return [...this.rows.values()].find((a) => a.projectId === projectId && a.fileName === fileName) ?? null;
  }

  async countByProject(projectId: string): Promise<number> {
    this.check();
    return [...this.rows.values()].filter((a) => a.projectId === projectId).length;
  }

  async deleteByProject(projectId: string): Promise<number> {
    this.check();
    let n = 0;
    for (const [id, a] of this.rows) {
      if (a.projectId !== projectId) continue;
      this.rows.delete(id);
      n += 1;
    }
    return n;
  }

  private check(): void {
    if (this.down) throw new Error('attachment repository unreachable');
  }
}
