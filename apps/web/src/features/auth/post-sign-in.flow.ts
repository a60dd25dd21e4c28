import { inject, injectable } from 'inversify';
import { makeAutoObservable, runInAction } from 'mobx';
import { HOME_PROMPT_KEY, type KeyValueStorage, type ProfileApi, STORAGE_KEYS, type SavedPrompts, TYPES } from '../../app/ports';
import { ReferralCapture } from '../referral-capture/referral-capture';

/** Auth screens: after sign-in the visitor never goes back to one of these. */
const AUTH_SCREENS = ['/get-started', '/login', '/signup', '/verify', '/reset-password', '/confirm', '/auth/callback', '/profile-setup'];

/**
 * A remembered path is followed only when it is an in-app path ('/x', not '//host' or a URL)
 * and not an auth screen; anything else means home.
 */
export function safeReturnPath(raw: string | null): string {
  if (raw === null || !raw.startsWith('/') || raw.startsWith('//') || raw.includes('\\')) return '/';
  const pathname = raw.split(/[?#]/, 1)[0] ?? '/';
  if (AUTH_SCREENS.some((screen) => pathname === screen || pathname.startsWith(`${screen}/`))) return '/';
  return raw;
}

/**
 * What happens once someone has signed in (password, code, reset or redirect): the profile is
 * ensured with any stored referral code (SPEC §4 "Profile creation"), and the remembered path
 * is restored — or, with a landing idea waiting, /creation/new turns it into a project.
 * `inProgress` lets the route guard leave /login alone while a sign-in is being finished.
 */
@injectable()
export class PostSignInFlow {
  inProgress = false;

  constructor(
    @inject(TYPES.ProfileApi) private readonly profiles: ProfileApi,
    @inject(TYPES.Storage) private readonly storage: KeyValueStorage,
    @inject(ReferralCapture) private readonly referrals: ReferralCapture,
    @inject(TYPES.SavedPrompts) private readonly prompts: SavedPrompts,
  ) {
    makeAutoObservable<PostSignInFlow, 'profiles' | 'storage' | 'referrals' | 'prompts'>(
      this,
      { profiles: false, storage: false, referrals: false, prompts: false },
      { autoBind: true },
    );
  }

  begin(): void {
    this.inProgress = true;
  }

  end(): void {
    this.inProgress = false;
  }

  /**
   * Ensures the profile and settles the stored referral code. Never throws: a failure leaves
   * the code stored for the next sign-in (the API also creates missing profiles on any call).
   */
  async completeSignIn(): Promise<void> {
    const code = this.referrals.pendingCode();
    try {
      const ensured = await this.profiles.ensure(code);
      runInAction(() => this.referrals.settle(ensured.referral));
    } catch (error) {
      console.error('Could not ensure the profile after sign-in', error);
    }
  }

  /** Remembers where a signed-out visitor wanted to go (SPEC §2 global auth redirect). */
  rememberReturnTo(path: string): void {
    this.storage.set(STORAGE_KEYS.returnTo, path);
  }

  /**
   * Where to go now that the visitor is signed in: the remembered path (consumed); else, when
   * an idea typed on the landing page waits, /creation/new (it becomes a project there); else '/'.
   */
  takeReturnTo(): string {
    const raw = this.storage.get(STORAGE_KEYS.returnTo);
    this.storage.remove(STORAGE_KEYS.returnTo);
    const path = safeReturnPath(raw);
    if (path === '/' && this.prompts.get(HOME_PROMPT_KEY)) return '/creation/new';
    return path;
  }
}
