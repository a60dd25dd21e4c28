import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Project databases (PgProjectDatabaseRepository, docs/databases.md): one per project, refs
 * unique (the constraints decide a provisioning race). The authenticator's password and the
 * project's JWT secret are stored sealed (AES-256-GCM under DATABASE_SECRETS_KEY), never in clear.
 */
export class ProjectDatabases1796110000000 implements MigrationInterface {
  name = 'ProjectDatabases1796110000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE project_databases (
        id                text        NOT NULL CONSTRAINT project_databases_pkey PRIMARY KEY,
        project_id        text        NOT NULL CONSTRAINT project_databases_project_id_key UNIQUE
                          CONSTRAINT project_databases_project_id_fkey REFERENCES projects (id) ON DELETE CASCADE,
        owner_id          text        NOT NULL,
        ref               text        NOT NULL CONSTRAINT project_databases_ref_key UNIQUE
                          CONSTRAINT project_databases_ref_check CHECK (ref ~ '^[a-z0-9]{20}$'),
        provider          text        NOT NULL CONSTRAINT project_databases_provider_check CHECK (provider IN ('local', 'neon')),
        status            text        NOT NULL CONSTRAINT project_databases_status_check CHECK (status IN ('provisioning', 'ready', 'detached')),
        host              text,
        port              integer,
        database_name     text,
        username          text,
        password_sealed   text,
        ssl               boolean     NOT NULL DEFAULT false,
        jwt_secret_sealed text        NOT NULL,
        created_at        timestamptz NOT NULL,
        updated_at        timestamptz NOT NULL,
        CONSTRAINT project_databases_connection_check CHECK (
          (host IS NULL AND port IS NULL AND database_name IS NULL AND username IS NULL AND password_sealed IS NULL)
          OR (host IS NOT NULL AND port IS NOT NULL AND database_name IS NOT NULL AND username IS NOT NULL AND password_sealed IS NOT NULL))
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE project_databases');
  }
}
