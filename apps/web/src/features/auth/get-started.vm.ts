import { inject, injectable } from 'inversify';
import { makeAutoObservable } from 'mobx';
import { HOME_PROMPT_KEY, type SavedPrompts, TYPES } from '../../app/ports';

/**
 * /get-started: choose to sign up or log in. The landing prompt (saved as 'home') is shown and
 * kept in storage so the builder can pick it up after sign-in.
 */
@injectable()
export class GetStartedVm {
  constructor(@inject(TYPES.SavedPrompts) private readonly savedPrompts: SavedPrompts) {
    makeAutoObservable<GetStartedVm, 'savedPrompts'>(this, { savedPrompts: false }, { autoBind: true });
  }

  /** The app idea typed on the landing page, if any. */
  get landingPrompt(): string | null {
    return this.savedPrompts.get(HOME_PROMPT_KEY);
  }
}
