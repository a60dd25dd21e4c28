import { type Project, isPublished } from '../projects/project.entity.js';
import type { ProjectRepository } from '../projects/project-repository.port.js';
import type { Pause } from './in-memory-credit-ledger.js';
import { RecordNotFoundError } from './in-memory-profile-repository.js';

export class InMemoryProjectRepository implements ProjectRepository {
  private readonly rows = new Map<string, Project>();

  constructor(private readonly pause: Pause = () => Promise.resolve()) {}

  async findById(id: string): Promise<Project | null> {
    await this.pause();
    return this.rows.get(id) ?? null;
  }

  async listByCreator(creatorId: string): Promise<readonly Project[]> {
    await this.pause();
    return [...this.rows.values()].filter((p) => p.creatorId === creatorId && p.status !== 'deleted');
  }

  async insert(project: Project): Promise<void> {
    await this.pause();
    if (this.rows.has(project.id)) throw new Error(`Project ${project.id} already exists`);
    this.rows.set(project.id, project);
  }

  async insertWithinLimit(project: Project, limit: number | null): Promise<boolean> {
    await this.pause();
    // Count and insert in one synchronous step: no interleaving between them.
    const active = [...this.rows.values()].filter((p) => p.creatorId === project.creatorId && p.status === 'active').length;
    if (limit !== null && active >= limit) return false;
    if (this.rows.has(project.id)) throw new Error(`Project ${project.id} already exists`);
    this.rows.set(project.id, project);
    return true;
  }

  async updateWithinPublishLimit(project: Project, limit: number | null): Promise<boolean> {
    await this.pause();
    const others = [...this.rows.values()].filter((p) => p.creatorId === project.creatorId && p.id !== project.id && isPublished(p)).length;
    if (limit !== null && others >= limit) return false;
    if (!this.rows.has(project.id)) throw new RecordNotFoundError(project.id);
    this.rows.set(project.id, project);
    return true;
  }

  async touch(id: string, at: Date): Promise<boolean> {
    await this.pause();
    const row = this.rows.get(id);
    if (row === undefined || row.status === 'deleted') return false;
    this.rows.set(id, { ...row, updatedAt: at });
    return true;
  }

  async rename(id: string, name: string, at: Date): Promise<boolean> {
    await this.pause();
    const row = this.rows.get(id);
    if (row === undefined || row.status === 'deleted') return false;
    this.rows.set(id, { ...row, name, updatedAt: at });
    return true;
  }

  async markDeleted(id: string, at: Date): Promise<boolean> {
    await this.pause();
    const row = this.rows.get(id);
    if (row === undefined || row.status === 'deleted') return false;
    this.rows.set(id, { ...row, status: 'deleted', updatedAt: at });
    return true;
  }

  async update(project: Project): Promise<void> {
    await this.pause();
    if (!this.rows.has(project.id)) throw new RecordNotFoundError(project.id);
    this.rows.set(project.id, project);
  }

  async countActiveByCreator(creatorId: string): Promise<number> {
    await this.pause();
    return [...this.rows.values()].filter((p) => p.creatorId === creatorId && p.status === 'active').length;
  }

  async countPublishedByCreator(creatorId: string): Promise<number> {
    await this.pause();
    return [...this.rows.values()].filter((p) => p.creatorId === creatorId && isPublished(p)).length;
  }
}
