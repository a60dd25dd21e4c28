import { inject, injectable } from 'inversify';
import { type HttpClient, TYPES } from '../app/ports';

/** POST /api/auth/soft-delete's reply. */
export interface DeletedAccountDto {
  readonly id: string;
  readonly deleted_at: string;
  readonly subscription_cancelled: boolean;
  readonly projects_hidden: number;
}

/** The caller's own account (deleting it). */
export interface AccountApi {
  softDelete(): Promise<DeletedAccountDto>;
}

@injectable()
export class HttpAccountApi implements AccountApi {
  constructor(@inject(TYPES.Http) private readonly http: HttpClient) {}

  softDelete(): Promise<DeletedAccountDto> {
    return this.http.post<DeletedAccountDto>('/api/auth/soft-delete', {});
  }
}
