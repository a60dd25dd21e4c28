import { inject, injectable } from 'inversify';
import { makeAutoObservable } from 'mobx';
import { type Navigator, type SessionService, TYPES } from '../app/ports';
import { PostSignInFlow } from '../features/auth/post-sign-in.flow';
import { type AccessDecision, decideAccess, type RouteGuardName } from './access';

export interface GuardLocation {
  readonly path: string;
  readonly search: string;
  readonly hash: string;
  readonly guard: RouteGuardName | null;
}

/** The global auth redirect and the route guards: decideAccess over the live session. */
@injectable()
export class RouteGuardVm {
  constructor(
    @inject(TYPES.Session) private readonly session: SessionService,
    @inject(PostSignInFlow) private readonly flow: PostSignInFlow,
    @inject(TYPES.Navigator) private readonly navigator: Navigator,
  ) {
    makeAutoObservable<RouteGuardVm, 'session' | 'flow' | 'navigator'>(
      this,
      { session: false, flow: false, navigator: false },
      { autoBind: true },
    );
  }

  /** Reads observables only: an observer view re-renders when the session changes. */
  decide(location: GuardLocation): AccessDecision {
    return decideAccess({
      ...location,
      status: this.session.status,
      user: this.session.user,
      signInInProgress: this.flow.inProgress,
    });
  }

  /** Carries out a redirect decision (from an effect, never during render). */
  follow(decision: AccessDecision): void {
    if (decision.kind !== 'redirect') return;
    if (decision.rememberReturnTo !== null) this.flow.rememberReturnTo(decision.rememberReturnTo);
    this.navigator.navigate(decision.to, { replace: true });
  }
}
