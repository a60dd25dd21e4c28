import type { Project, ProjectStatus } from '@kiln/domain';
import type { ProjectOrmEntity } from './project.orm-entity.js';

const STATUSES: readonly ProjectStatus[] = ['active', 'archived', 'deleted'];

export function toProject(row: ProjectOrmEntity): Project {
  if (!STATUSES.includes(row.status as ProjectStatus)) throw new Error(`projects.status holds an unexpected value: ${row.status}`);
  return {
    id: row.id,
    creatorId: row.creatorId,
    name: row.name,
    slug: row.slug,
    status: row.status as ProjectStatus,
    domain: row.domain,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

export function toProjectRow(p: Project): ProjectOrmEntity {
  return {
    id: p.id,
    creatorId: p.creatorId,
    name: p.name,
    slug: p.slug,
    status: p.status,
    domain: p.domain,
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
  };
}
