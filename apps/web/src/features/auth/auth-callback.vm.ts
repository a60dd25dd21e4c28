import { inject, injectable } from 'inversify';
import { makeAutoObservable, runInAction, when } from 'mobx';
import { type Navigator, type SessionService, TYPES } from '../../app/ports';
import { callbackErrorMessage } from './auth-messages';
import { PostSignInFlow } from './post-sign-in.flow';

/** The error an auth redirect reports in its query or fragment, if any. */
export function callbackError(search: string, hash: string): { code: string | null; description: string | null } | null {
  const query = new URLSearchParams(search);
  const fragment = new URLSearchParams(hash.startsWith('#') ? hash.slice(1) : hash);
  const read = (name: string): string | null => query.get(name) ?? fragment.get(name);
  const error = read('error');
  const code = read('error_code');
  if (error === null && code === null) return null;
  return { code: code ?? error, description: read('error_description') };
}

/**
 * /auth/callback: auth-js has already read a session from the URL (detectSessionInUrl on this
 * path); once the session is known this finishes the sign-in and redirects. SPEC §8: redirect
 * errors (identity_already_exists…) are reported, not cleared.
 */
@injectable()
export class AuthCallbackVm {
  error: string | null = null;
  /** Each finish() gets a number; dispose() or a newer finish() makes older ones stop. */
  private run = 0;

  constructor(
    @inject(TYPES.Session) private readonly session: SessionService,
    @inject(TYPES.Navigator) private readonly navigator: Navigator,
    @inject(PostSignInFlow) private readonly flow: PostSignInFlow,
  ) {
    makeAutoObservable<AuthCallbackVm, 'session' | 'navigator' | 'flow' | 'run'>(
      this,
      { session: false, navigator: false, flow: false, run: false },
      { autoBind: true },
    );
  }

  async finish(location: { search: string; hash: string }): Promise<void> {
    const run = ++this.run;
    const failure = callbackError(location.search, location.hash);
    if (failure) {
      this.error = callbackErrorMessage(failure.code, failure.description);
      return;
    }
    await when(() => this.session.status !== 'loading');
    if (run !== this.run) return;
    if (this.session.status !== 'signed-in') {
      runInAction(() => this.navigator.navigate('/get-started', { replace: true }));
      return;
    }
    await this.flow.completeSignIn();
    if (run !== this.run) return;
    runInAction(() => this.navigator.navigate(this.flow.takeReturnTo(), { replace: true }));
  }

  dispose(): void {
    this.run += 1;
  }
}
