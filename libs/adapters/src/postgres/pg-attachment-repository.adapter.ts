import type { Attachment, AttachmentRepository } from '@kiln/domain';
import type { PgUnitOfWork } from './pg-unit-of-work.js';
import { sql } from './sql.js';

interface AttachmentRow {
  id: string;
  project_id: string;
  user_id: string;
  name: string;
  file_name: string;
  content_type: string;
  size: number;
  created_at: Date;
}

const COLUMNS = 'id, project_id, user_id, name, file_name, content_type, size, created_at';

const toAttachment = (r: AttachmentRow): Attachment =>
  Object.freeze({
    id: r.id,
    projectId: r.project_id,
    userId: r.user_id,
    name: r.name,
    fileName: r.file_name,
    contentType: r.content_type,
    size: Number(r.size),
    createdAt: new Date(r.created_at),
  });

/** AttachmentRepository in PostgreSQL (`project_attachments`): every read is scoped to its project. */
export class PgAttachmentRepository implements AttachmentRepository {
  constructor(private readonly tx: PgUnitOfWork) {}

  async add(a: Attachment): Promise<void> {
    await sql(
      this.tx.manager(),
      `INSERT INTO project_attachments (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [a.id, a.projectId, a.userId, a.name, a.fileName, a.contentType, a.size, a.createdAt],
    );
  }

  async find(projectId: string, id: string): Promise<Attachment | null> {
    const { rows } = await sql<AttachmentRow>(this.tx.manager(), `SELECT ${COLUMNS} FROM project_attachments WHERE project_id = $1 AND id = $2`, [projectId, id]);
    return rows[0] ? toAttachment(rows[0]) : null;
  }

  async findByFileName(projectId: string, fileName: string): Promise<Attachment | null> {
    const { rows } = await sql<AttachmentRow>(this.tx.manager(), `SELECT ${COLUMNS} FROM project_attachments WHERE project_id = $1 AND file_name = $2`, [projectId, fileName]);
    return rows[0] ? toAttachment(rows[0]) : null;
  }

  async countByProject(projectId: string): Promise<number> {
    const { rows } = await sql<{ n: number }>(this.tx.manager(), 'SELECT count(*)::int AS n FROM project_attachments WHERE project_id = $1', [projectId]);
    return rows[0]?.n ?? 0;
  }

  async deleteByProject(projectId: string): Promise<number> {
    const { rowCount } = await sql(this.tx.manager(), 'DELETE FROM project_attachments WHERE project_id = $1', [projectId]);
    return rowCount;
  }
}
