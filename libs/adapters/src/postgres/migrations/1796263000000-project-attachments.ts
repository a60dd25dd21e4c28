import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Files attached to the builder's prompts (issue 18 item 3; PgAttachmentRepository). The bytes are
 * in the ObjectStore under attachments/<project>/<id>; this row says whose they are and the name
 * the app knows them by (public/attachments/<file_name>), unique in the project.
 */
export class ProjectAttachments1796263000000 implements MigrationInterface {
  name = 'ProjectAttachments1796263000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE project_attachments (
        id           text        PRIMARY KEY,
        project_id   text        NOT NULL CONSTRAINT project_attachments_project_id_fkey REFERENCES projects (id) ON DELETE CASCADE,
        user_id      text        NOT NULL,
        name         text        NOT NULL CONSTRAINT project_attachments_name_check CHECK (length(name) BETWEEN 1 AND 100),
        file_name    text        NOT NULL CONSTRAINT project_attachments_file_name_check CHECK (file_name ~ '^[a-z0-9][a-z0-9-]{0,60}\\.[a-z0-9]{1,5}$'),
        content_type text        NOT NULL CONSTRAINT project_attachments_content_type_check CHECK (length(content_type) BETWEEN 3 AND 100),
        size         integer     NOT NULL CONSTRAINT project_attachments_size_check CHECK (size BETWEEN 1 AND 10485760),
        created_at   timestamptz NOT NULL,
        CONSTRAINT project_attachments_file_name_key UNIQUE (project_id, file_name)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE project_attachments');
  }
}
