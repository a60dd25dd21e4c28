// /api/projects: the signed-in user's projects (apps/api/src/projects/dto).
import { inject, injectable } from 'inversify';
import { type HttpClient, TYPES } from '../app/ports';

export interface ProjectDto {
  readonly id: string;
  readonly name: string;
  readonly slug: string;
  readonly status: string;
  readonly domain: string | null;
  readonly created_at: string;
  readonly updated_at: string;
}

export interface ProjectsApi {
  create(name: string): Promise<ProjectDto>;
  get(id: string): Promise<ProjectDto>;
  /** The caller's projects (deleted ones left out), newest first. */
  list(): Promise<ProjectDto[]>;
  rename(id: string, name: string): Promise<ProjectDto>;
  /** Soft delete: the project no longer counts against the plan. */
  remove(id: string): Promise<void>;
}

@injectable()
export class HttpProjectsApi implements ProjectsApi {
  constructor(@inject(TYPES.Http) private readonly http: HttpClient) {}

  create(name: string): Promise<ProjectDto> {
    return this.http.post<ProjectDto>('/api/projects', { name });
  }

  get(id: string): Promise<ProjectDto> {
    return this.http.get<ProjectDto>(`/api/projects/${encodeURIComponent(id)}`);
  }

  list(): Promise<ProjectDto[]> {
    return this.http.get<ProjectDto[]>('/api/projects');
  }

  rename(id: string, name: string): Promise<ProjectDto> {
    return this.http.patch<ProjectDto>(`/api/projects/${encodeURIComponent(id)}`, { name });
  }

  async remove(id: string): Promise<void> {
    await this.http.delete<unknown>(`/api/projects/${encodeURIComponent(id)}`);
  }
}
