import { inject, injectable } from 'inversify';
import { makeAutoObservable, runInAction } from 'mobx';
import { ApiError, type Navigator, type SessionService, type Toasts, TYPES } from '../../app/ports';
import type { AccountApi } from '../../api/account.api';

/** Emails compare without case or surrounding spaces (the server normalises them the same way). */
const normalise = (email: string): string => email.trim().toLowerCase();

/**
 * Settings' "Delete account": a dialog where the person types their email to confirm. The server
 * cancels the subscription at period end, hides the projects, stops what they served and ends
 * every session; then this signs out locally and goes home.
 */
@injectable()
export class DeleteAccountVm {
  confirming = false;
  confirmation = '';
  deleting = false;
  error: string | null = null;

  constructor(
    @inject(TYPES.AccountApi) private readonly api: AccountApi,
    @inject(TYPES.Session) private readonly session: SessionService,
    @inject(TYPES.Navigator) private readonly navigator: Navigator,
    @inject(TYPES.Toasts) private readonly toasts: Toasts,
  ) {
    makeAutoObservable<DeleteAccountVm, 'api' | 'session' | 'navigator' | 'toasts'>(
      this,
      { api: false, session: false, navigator: false, toasts: false },
      { autoBind: true },
    );
  }

  /** The address to type: the signed-in account's. */
  get email(): string {
    return this.session.user?.email ?? '';
  }

  /** Enabled only once the typed address matches, and not while a delete runs. */
  get canDelete(): boolean {
    return this.email !== '' && normalise(this.confirmation) === normalise(this.email) && !this.deleting;
  }

  open(): void {
    this.confirming = true;
    this.confirmation = '';
    this.error = null;
  }

  dismiss(): void {
    if (this.deleting) return;
    this.confirming = false;
  }

  setConfirmation(value: string): void {
    this.confirmation = value;
    this.error = null;
  }

  async confirm(): Promise<void> {
    if (!this.canDelete) return;
    this.deleting = true;
    this.error = null;
    try {
      await this.api.softDelete();
    } catch (error) {
      runInAction(() => {
        this.deleting = false;
        this.error = messageFor(error);
      });
      return;
    }
    // Every session already ended on the server; this clears the local one (a failure changes nothing).
    await this.session.signOut().catch(() => undefined);
    runInAction(() => {
      this.deleting = false;
      this.confirming = false;
    });
    this.toasts.show({ title: 'Account deleted', description: 'Your account was deleted and you were signed out.', variant: 'success' });
    this.navigator.navigate('/', { replace: true });
  }
}

function messageFor(error: unknown): string {
  if (error instanceof ApiError && error.status === 503) return 'Your account could not be deleted right now. Nothing was lost; please try again in a moment.';
  if (error instanceof ApiError && (error.status === 401 || error.status === 404)) return 'Your session has ended. Sign in again to delete your account.';
  return 'Something went wrong while deleting your account. Please try again.';
}
