import { inject, injectable } from 'inversify';
import { makeAutoObservable, runInAction } from 'mobx';
import { type Navigator, type SessionService, TYPES } from '../../app/ports';

/** The header's Sign out: ends the session server-side (auth-js logout) and goes home. */
@injectable()
export class SignOutVm {
  signingOut = false;

  constructor(
    @inject(TYPES.Session) private readonly session: SessionService,
    @inject(TYPES.Navigator) private readonly navigator: Navigator,
  ) {
    makeAutoObservable<SignOutVm, 'session' | 'navigator'>(this, { session: false, navigator: false }, { autoBind: true });
  }

  async signOut(): Promise<void> {
    if (this.signingOut) return;
    this.signingOut = true;
    try {
      await this.session.signOut();
    } finally {
      runInAction(() => (this.signingOut = false));
      this.navigator.navigate('/', { replace: true });
    }
  }
}
