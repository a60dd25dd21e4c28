import { inject, injectable } from 'inversify';
import { type EnsureProfileResult, type HttpClient, type ProfileApi, type ProfileChanges, type ProfileDto, TYPES } from '../app/ports';

export type { EnsureProfileResult, ProfileApi, ProfileChanges, ProfileDto, ReferralOutcome } from '../app/ports';

/** The profile endpoints of the API (GET/PATCH /api/profile, POST /api/profile/ensure). */
@injectable()
export class HttpProfileApi implements ProfileApi {
  constructor(@inject(TYPES.Http) private readonly http: HttpClient) {}

  get(): Promise<ProfileDto> {
    return this.http.get<ProfileDto>('/api/profile');
  }

  update(changes: ProfileChanges): Promise<ProfileDto> {
    return this.http.patch<ProfileDto>('/api/profile', changes);
  }

  ensure(referralCode: string | null): Promise<EnsureProfileResult> {
    return this.http.post<EnsureProfileResult>('/api/profile/ensure', referralCode ? { referral_code: referralCode } : {});
  }
}
