import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Hosting (PgHostingRepository, docs/hosting.md): a project's published site, its immutable
 * releases, its custom domains and its latest screenshot. The unique constraints are the final
 * guarantee of the domain's rules: one project per slug, one release per (project, number), one
 * domain per host — concurrent writers cannot both win.
 */
export class Hosting1796020000000 implements MigrationInterface {
  name = 'Hosting1796020000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE releases (
        id          text        NOT NULL CONSTRAINT releases_pkey PRIMARY KEY,
        project_id  text        NOT NULL CONSTRAINT releases_project_id_fkey REFERENCES projects (id) ON DELETE CASCADE,
        number      integer     NOT NULL CONSTRAINT releases_number_check CHECK (number > 0),
        commit      text        NOT NULL,
        size_bytes  bigint      NOT NULL CONSTRAINT releases_size_check CHECK (size_bytes >= 0),
        file_count  integer     NOT NULL CONSTRAINT releases_file_count_check CHECK (file_count >= 0),
        created_at  timestamptz NOT NULL,
        CONSTRAINT releases_project_number_key UNIQUE (project_id, number)
      )`);
    await q.query(`
      CREATE TABLE published_sites (
        project_id         text        NOT NULL CONSTRAINT published_sites_pkey PRIMARY KEY
                           CONSTRAINT published_sites_project_id_fkey REFERENCES projects (id) ON DELETE CASCADE,
        slug               text        NOT NULL CONSTRAINT published_sites_slug_key UNIQUE
                           CONSTRAINT published_sites_slug_check CHECK (slug ~ '^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$'),
        current_release_id text        CONSTRAINT published_sites_release_fkey REFERENCES releases (id),
        status             text        NOT NULL CONSTRAINT published_sites_status_check CHECK (status IN ('live', 'unpublished')),
        published_at       timestamptz,
        updated_at         timestamptz NOT NULL
      )`);
    await q.query(`
      CREATE TABLE custom_domains (
        id                 text        NOT NULL CONSTRAINT custom_domains_pkey PRIMARY KEY,
        project_id         text        NOT NULL CONSTRAINT custom_domains_project_id_fkey REFERENCES projects (id) ON DELETE CASCADE,
        host               text        NOT NULL CONSTRAINT custom_domains_host_key UNIQUE
                           CONSTRAINT custom_domains_host_check CHECK (host = lower(host) AND length(host) <= 253),
        verification_token text        NOT NULL,
        status             text        NOT NULL CONSTRAINT custom_domains_status_check
                           CHECK (status IN ('pending', 'verified', 'certificate_issued', 'active', 'failed')),
        failure_reason     text,
        created_at         timestamptz NOT NULL,
        updated_at         timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX custom_domains_project_idx ON custom_domains (project_id, created_at, id)`);
    await q.query(`
      CREATE TABLE site_screenshots (
        project_id text        NOT NULL CONSTRAINT site_screenshots_pkey PRIMARY KEY
                   CONSTRAINT site_screenshots_project_id_fkey REFERENCES projects (id) ON DELETE CASCADE,
        png        bytea       NOT NULL,
        taken_at   timestamptz NOT NULL
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE site_screenshots');
    await q.query('DROP TABLE custom_domains');
    await q.query('DROP TABLE published_sites');
    await q.query('DROP TABLE releases');
  }
}
