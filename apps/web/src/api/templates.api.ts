// The template catalog and the wizard's template step (apps/api/src/templates), and
// POST /api/vector/clone-template (SPEC §7: template, project_id).
import type { TemplateId } from '@kiln/domain';
import { inject, injectable } from 'inversify';
import { type HttpClient, TYPES } from '../app/ports';

export interface TemplateDto {
  readonly id: TemplateId;
  readonly name: string;
  readonly description: string;
}

export interface AppliedTemplateDto {
  readonly template_id: TemplateId;
  readonly written_files: readonly string[];
  readonly commit?: { readonly success: boolean; readonly message: string };
}

export interface TemplatesApi {
  list(): Promise<TemplateDto[]>;
  /** Writes the template's files into the project's sandbox as one version. */
  apply(projectId: string, templateId: TemplateId): Promise<AppliedTemplateDto>;
  /** Starts the project's vector index as the template's (SPEC §7 clone-template). */
  cloneIndex(projectId: string, templateId: TemplateId): Promise<{ readonly indexed_files: number }>;
}

@injectable()
export class HttpTemplatesApi implements TemplatesApi {
  constructor(@inject(TYPES.Http) private readonly http: HttpClient) {}

  list(): Promise<TemplateDto[]> {
    return this.http.get<TemplateDto[]>('/api/templates');
  }

  apply(projectId: string, templateId: TemplateId): Promise<AppliedTemplateDto> {
    return this.http.post<AppliedTemplateDto>(`/api/sandbox/${encodeURIComponent(projectId)}/apply-template`, { template_id: templateId });
  }

  cloneIndex(projectId: string, templateId: TemplateId): Promise<{ readonly indexed_files: number }> {
    return this.http.post<{ indexed_files: number }>('/api/vector/clone-template', { template: templateId, project_id: projectId });
  }
}
