import type { CustomDomain, CustomDomainStatus, HostingRepository, PublishedSite, Release, SiteStatus, SiteWithScreenshot } from '@kiln/domain';
import type { PgUnitOfWork } from './pg-unit-of-work.js';
import { isUniqueViolation, sql, toSafeInteger } from './sql.js';

interface SiteRow {
  project_id: string;
  slug: string;
  current_release_id: string | null;
  status: SiteStatus;
  published_at: Date | null;
  updated_at: Date;
}
interface ReleaseRow {
  id: string;
  project_id: string;
  number: number;
  commit: string;
  size_bytes: string | number;
  file_count: number;
  created_at: Date;
}
interface DomainRow {
  id: string;
  project_id: string;
  host: string;
  verification_token: string;
  status: CustomDomainStatus;
  failure_reason: string | null;
  created_at: Date;
  updated_at: Date;
}

const SITE_COLUMNS = 'project_id, slug, current_release_id, status, published_at, updated_at';
const RELEASE_COLUMNS = 'id, project_id, number, commit, size_bytes, file_count, created_at';
const DOMAIN_COLUMNS = 'id, project_id, host, verification_token, status, failure_reason, created_at, updated_at';

const date = (value: Date | string): Date => new Date(value);

const toSite = (row: SiteRow): PublishedSite =>
  Object.freeze({
    projectId: row.project_id,
    slug: row.slug,
    currentReleaseId: row.current_release_id,
    status: row.status,
    publishedAt: row.published_at === null ? null : date(row.published_at),
    updatedAt: date(row.updated_at),
  });

const toRelease = (row: ReleaseRow): Release =>
  Object.freeze({
    id: row.id,
    projectId: row.project_id,
    number: row.number,
    commit: row.commit,
    sizeBytes: toSafeInteger(row.size_bytes, 'releases.size_bytes'),
    fileCount: row.file_count,
    createdAt: date(row.created_at),
  });

const toDomain = (row: DomainRow): CustomDomain =>
  Object.freeze({
    id: row.id,
    projectId: row.project_id,
    host: row.host,
    verificationToken: row.verification_token,
    status: row.status,
    failureReason: row.failure_reason,
    createdAt: date(row.created_at),
    updatedAt: date(row.updated_at),
  });

/** A unique index said no: the domain error code the port promises, on the rejection. */
class HostingConflict extends Error {
  constructor(
    readonly code: 'HOSTING.SLUG_TAKEN' | 'HOSTING.DOMAIN_TAKEN' | 'HOSTING.RELEASE_NUMBER_TAKEN',
    message: string,
  ) {
    super(message);
    this.name = 'HostingConflict';
  }
}

/**
 * Tables published_sites, releases, custom_domains and site_screenshots (migration Hosting).
 * One statement per operation; the unique constraints decide races (slug, release number, host)
 * and their violations come back with the domain's codes.
 */
export class PgHostingRepository implements HostingRepository {
  constructor(private readonly tx: PgUnitOfWork) {}

  async findSite(projectId: string): Promise<PublishedSite | null> {
    const { rows } = await this.run<SiteRow>(`SELECT ${SITE_COLUMNS} FROM published_sites WHERE project_id = $1`, [projectId]);
    return rows[0] ? toSite(rows[0]) : null;
  }

  async findSiteBySlug(slug: string): Promise<PublishedSite | null> {
    const { rows } = await this.run<SiteRow>(`SELECT ${SITE_COLUMNS} FROM published_sites WHERE slug = $1`, [slug]);
    return rows[0] ? toSite(rows[0]) : null;
  }

  async listSites(projectIds: readonly string[]): Promise<readonly SiteWithScreenshot[]> {
    if (projectIds.length === 0) return [];
    // One statement for a whole home page; the screenshot's bytes stay in the table.
    const { rows } = await this.run<SiteRow & { screenshot_taken_at: Date | null }>(
      `SELECT ${SITE_COLUMNS.split(', ').map((c) => `s.${c}`).join(', ')}, sh.taken_at AS screenshot_taken_at
       FROM published_sites s LEFT JOIN site_screenshots sh ON sh.project_id = s.project_id
       WHERE s.project_id = ANY($1::text[])`,
      [[...new Set(projectIds)]],
    );
    return rows.map((row) => ({ site: toSite(row), screenshotTakenAt: row.screenshot_taken_at === null ? null : date(row.screenshot_taken_at) }));
  }

  async saveSite(site: PublishedSite): Promise<void> {
    try {
      await this.run(
        `INSERT INTO published_sites (${SITE_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (project_id) DO UPDATE SET slug = EXCLUDED.slug, current_release_id = EXCLUDED.current_release_id,
           status = EXCLUDED.status, published_at = EXCLUDED.published_at, updated_at = EXCLUDED.updated_at`,
        [site.projectId, site.slug, site.currentReleaseId, site.status, site.publishedAt, site.updatedAt],
      );
    } catch (error) {
      if (isUniqueViolation(error, 'published_sites_slug_key')) throw new HostingConflict('HOSTING.SLUG_TAKEN', `Slug ${site.slug} is taken`);
      throw error;
    }
  }

  async addRelease(release: Release): Promise<void> {
    try {
      await this.run(`INSERT INTO releases (${RELEASE_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7)`, [
        release.id,
        release.projectId,
        release.number,
        release.commit,
        release.sizeBytes,
        release.fileCount,
        release.createdAt,
      ]);
    } catch (error) {
      if (isUniqueViolation(error, 'releases_project_number_key')) {
        throw new HostingConflict('HOSTING.RELEASE_NUMBER_TAKEN', `Release number ${release.number} is taken`);
      }
      throw error;
    }
  }

  async findRelease(projectId: string, releaseId: string): Promise<Release | null> {
    const { rows } = await this.run<ReleaseRow>(`SELECT ${RELEASE_COLUMNS} FROM releases WHERE id = $1 AND project_id = $2`, [releaseId, projectId]);
    return rows[0] ? toRelease(rows[0]) : null;
  }

  async listReleases(projectId: string): Promise<readonly Release[]> {
    const { rows } = await this.run<ReleaseRow>(`SELECT ${RELEASE_COLUMNS} FROM releases WHERE project_id = $1 ORDER BY number DESC`, [projectId]);
    return rows.map(toRelease);
  }

  async addDomain(domain: CustomDomain): Promise<void> {
    try {
      await this.run(`INSERT INTO custom_domains (${DOMAIN_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`, [
        domain.id,
        domain.projectId,
        domain.host,
        domain.verificationToken,
        domain.status,
        domain.failureReason,
        domain.createdAt,
        domain.updatedAt,
      ]);
    } catch (error) {
      if (isUniqueViolation(error, 'custom_domains_host_key')) throw new HostingConflict('HOSTING.DOMAIN_TAKEN', `${domain.host} is taken`);
      throw error;
    }
  }

  /** The status, reason and token of a stored domain; its host and project never change. */
  async saveDomain(domain: CustomDomain): Promise<void> {
    const { rowCount } = await this.run(
      `UPDATE custom_domains SET verification_token = $2, status = $3, failure_reason = $4, updated_at = $5 WHERE id = $1`,
      [domain.id, domain.verificationToken, domain.status, domain.failureReason, domain.updatedAt],
    );
    if (rowCount === 0) throw new Error(`Record with id ${domain.id} not found`);
  }

  async removeDomain(id: string): Promise<void> {
    await this.run('DELETE FROM custom_domains WHERE id = $1', [id]);
  }

  async findDomainByHost(host: string): Promise<CustomDomain | null> {
    const { rows } = await this.run<DomainRow>(`SELECT ${DOMAIN_COLUMNS} FROM custom_domains WHERE host = $1`, [host]);
    return rows[0] ? toDomain(rows[0]) : null;
  }

  async listDomains(projectId: string): Promise<readonly CustomDomain[]> {
    const { rows } = await this.run<DomainRow>(`SELECT ${DOMAIN_COLUMNS} FROM custom_domains WHERE project_id = $1 ORDER BY created_at, id COLLATE "C"`, [
      projectId,
    ]);
    return rows.map(toDomain);
  }

  async saveScreenshot(projectId: string, png: Uint8Array, takenAt: Date): Promise<void> {
    await this.run(
      `INSERT INTO site_screenshots (project_id, png, taken_at) VALUES ($1, $2, $3)
       ON CONFLICT (project_id) DO UPDATE SET png = EXCLUDED.png, taken_at = EXCLUDED.taken_at`,
      [projectId, Buffer.from(png.buffer, png.byteOffset, png.byteLength), takenAt],
    );
  }

  async findScreenshot(projectId: string): Promise<{ readonly png: Uint8Array; readonly takenAt: Date } | null> {
    const { rows } = await this.run<{ png: Buffer; taken_at: Date }>('SELECT png, taken_at FROM site_screenshots WHERE project_id = $1', [projectId]);
    const row = rows[0];
    return row ? { png: new Uint8Array(row.png), takenAt: date(row.taken_at) } : null;
  }

  private run<Row>(text: string, params: readonly unknown[]) {
    return sql<Row>(this.tx.manager(), text, params);
  }
}
