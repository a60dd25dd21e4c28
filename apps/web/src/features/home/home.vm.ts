import { injectable } from 'inversify';
import { makeAutoObservable } from 'mobx';

/** State of the home screen: the app idea the user is about to build. */
@injectable()
export class HomeVm {
  prompt = '';

  constructor() {
    makeAutoObservable(this);
  }

  get canSubmit(): boolean {
    return this.prompt.trim().length > 0;
  }

  setPrompt(prompt: string): void {
    this.prompt = prompt;
  }
}
