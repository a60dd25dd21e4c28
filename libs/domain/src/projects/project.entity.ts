export type ProjectStatus = 'active' | 'archived' | 'deleted';

/** A project (table projects). A non-null domain means it is published (SPEC §3). */
export interface Project {
  readonly id: string;
  readonly creatorId: string;
  readonly name: string;
  readonly slug: string;
  readonly status: ProjectStatus;
  readonly domain: string | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

export const isPublished = (p: Pick<Project, 'status' | 'domain'>): boolean => p.status === 'active' && p.domain !== null;

/**
 * A URL-safe slug: the name in lower-case words joined by dashes, then up to 12 letters and
 * digits of the id (distinct for any two ids that differ in them; a unique index on the slug is
 * the final guarantee).
 */
export function slugFor(name: string, id: string): string {
  const words = name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/\p{M}/gu, '') // drop the accents NFKD splits off, so 'déjà' is 'deja', not 'de-ja'
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 48)
    .replace(/-+$/g, '');
  const suffix = id.replace(/[^a-zA-Z0-9]/g, '').slice(0, 12).toLowerCase();
  return [words || 'project', suffix].filter(Boolean).join('-');
}

/** The longest project name the API accepts. */
export const MAX_PROJECT_NAME_LENGTH = 100;

export function newProject(input: { id: string; creatorId: string; name: string }, now: Date): Project {
  const name = input.name.trim() || 'Untitled project';
  return Object.freeze({
    id: input.id,
    creatorId: input.creatorId,
    name,
    slug: slugFor(name, input.id),
    status: 'active',
    domain: null,
    createdAt: now,
    updatedAt: now,
  });
}
