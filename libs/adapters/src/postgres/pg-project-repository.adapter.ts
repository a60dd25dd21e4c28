import type { Project, ProjectRepository } from '@kiln/domain';
import { IsNull, Not } from 'typeorm';
import type { PgUnitOfWork } from './pg-unit-of-work.js';
import { toProject, toProjectRow } from './project.mapper.js';
import { ProjectOrmEntity } from './project.orm-entity.js';
import { RecordNotFoundError, isUniqueViolation } from './sql.js';

/** Projects in table `projects`; counts use the (creator_id, status) index. */
export class PgProjectRepository implements ProjectRepository {
  constructor(private readonly tx: PgUnitOfWork) {}

  async findById(id: string): Promise<Project | null> {
    const row = await this.tx.manager().findOneBy(ProjectOrmEntity, { id });
    return row ? toProject(row) : null;
  }

  async listByCreator(creatorId: string): Promise<readonly Project[]> {
    const rows = await this.tx.manager().find(ProjectOrmEntity, {
      where: { creatorId, status: Not('deleted') },
      order: { createdAt: 'ASC', id: 'ASC' },
    });
    return rows.map(toProject);
  }

  async insert(project: Project): Promise<void> {
    try {
      await this.tx.manager().insert(ProjectOrmEntity, toProjectRow(project));
    } catch (error) {
      if (isUniqueViolation(error, 'projects_pkey')) throw new Error(`Project ${project.id} already exists`);
      if (isUniqueViolation(error, 'projects_slug_key')) throw new Error(`Project slug ${project.slug} is already taken`);
      throw error;
    }
  }

  /** Locks the creator's profile row, so concurrent creations by one user are serialised. */
  insertWithinLimit(project: Project, limit: number | null): Promise<boolean> {
    return this.tx.atomically(async (manager) => {
      await manager.query('SELECT 1 FROM profiles WHERE id = $1 FOR UPDATE', [project.creatorId]);
      if (limit !== null) {
        const active = await manager.countBy(ProjectOrmEntity, { creatorId: project.creatorId, status: 'active' });
        if (active >= limit) return false;
      }
      await this.insert(project);
      return true;
    });
  }

  /** Locks the creator's profile row, so concurrent publishes by one user are serialised. */
  updateWithinPublishLimit(project: Project, limit: number | null): Promise<boolean> {
    return this.tx.atomically(async (manager) => {
      await manager.query('SELECT 1 FROM profiles WHERE id = $1 FOR UPDATE', [project.creatorId]);
      if (limit !== null) {
        const others = await manager.countBy(ProjectOrmEntity, {
          creatorId: project.creatorId,
          status: 'active',
          domain: Not(IsNull()),
          id: Not(project.id),
        });
        if (others >= limit) return false;
      }
      await this.update(project);
      return true;
    });
  }

  async touch(id: string, at: Date): Promise<boolean> {
    const result = await this.tx.manager().update(ProjectOrmEntity, { id, status: Not('deleted') }, { updatedAt: at });
    return (result.affected ?? 0) > 0;
  }

  async rename(id: string, name: string, at: Date): Promise<boolean> {
    const result = await this.tx.manager().update(ProjectOrmEntity, { id, status: Not('deleted') }, { name, updatedAt: at });
    return (result.affected ?? 0) > 0;
  }

  async markDeleted(id: string, at: Date): Promise<boolean> {
    const result = await this.tx.manager().update(ProjectOrmEntity, { id, status: Not('deleted') }, { status: 'deleted', updatedAt: at });
    return (result.affected ?? 0) > 0;
  }

  async update(project: Project): Promise<void> {
    const { id, ...columns } = toProjectRow(project);
    const result = await this.tx.manager().update(ProjectOrmEntity, { id }, columns);
    if (!result.affected) throw new RecordNotFoundError(id);
  }

  countActiveByCreator(creatorId: string): Promise<number> {
    return this.tx.manager().countBy(ProjectOrmEntity, { creatorId, status: 'active' });
  }

  /** Published = active with a domain (`isPublished`). */
  countPublishedByCreator(creatorId: string): Promise<number> {
    return this.tx.manager().countBy(ProjectOrmEntity, { creatorId, status: 'active', domain: Not(IsNull()) });
  }
}
