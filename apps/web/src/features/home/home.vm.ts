import { LANDING_EXAMPLES } from '@kiln/domain';
import { inject, injectable } from 'inversify';
import { makeAutoObservable } from 'mobx';
import { HOME_PROMPT_KEY, type Navigator, type SavedPrompts, type SessionService, TYPES } from '../../app/ports';

/** Ideas a visitor can start from with one click (the domain keeps the list; the offline assistant's spec builds each). */
export const EXAMPLE_IDEAS = LANDING_EXAMPLES;

/** Where the builder starts a new project (the builder issue completes that screen). */
export const NEW_PROJECT_PATH = '/creation/new';
export const GET_STARTED_PATH = '/get-started';
/** A new project set up step by step (CreationVm goes on to /wizard/{id}). */
export const NEW_PROJECT_WIZARD_PATH = '/creation/new?wizard=1';

/** The landing page: the app idea a visitor is about to build, kept across the sign-up detour. */
@injectable()
export class HomeVm {
  prompt = '';
  readonly examples = EXAMPLE_IDEAS;

  constructor(
    @inject(TYPES.SavedPrompts) private readonly savedPrompts: SavedPrompts,
    @inject(TYPES.Session) private readonly session: SessionService,
    @inject(TYPES.Navigator) private readonly navigator: Navigator,
  ) {
    this.prompt = savedPrompts.get(HOME_PROMPT_KEY) ?? '';
    makeAutoObservable<HomeVm, 'savedPrompts' | 'session' | 'navigator'>(this, {
      savedPrompts: false,
      session: false,
      navigator: false,
      examples: false,
    });
  }

  /**
   * The "Start free" banner asks a visitor to sign up: only for someone signed out (not while
   * the session is still being read, so a signed-in Pro user never sees it flash).
   */
  get showStartFreeBanner(): boolean {
    return this.session.status === 'signed-out';
  }

  get canSubmit(): boolean {
    return this.prompt.trim().length > 0;
  }

  setPrompt(prompt: string): void {
    this.prompt = prompt;
  }

  useExample(prompt: string): void {
    this.prompt = prompt;
  }

  /**
   * Saves the idea as the 'home' saved prompt, then goes on: to the builder when signed in,
   * else to /get-started (the idea waits in storage through sign-up).
   */
  submit(): void {
    if (!this.canSubmit) return;
    this.savedPrompts.set(HOME_PROMPT_KEY, this.prompt.trim());
    this.navigator.navigate(this.session.status === 'signed-in' ? NEW_PROJECT_PATH : GET_STARTED_PATH);
  }

  /** A new project through the setup wizard (an idea typed here becomes its first prompt's draft). */
  startWizard(): void {
    if (this.canSubmit) this.savedPrompts.set(HOME_PROMPT_KEY, this.prompt.trim());
    this.navigator.navigate(this.session.status === 'signed-in' ? NEW_PROJECT_WIZARD_PATH : GET_STARTED_PATH);
  }
}
