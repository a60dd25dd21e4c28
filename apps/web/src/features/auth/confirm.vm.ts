import { inject, injectable } from 'inversify';
import { makeAutoObservable } from 'mobx';
import { type Navigator, TYPES } from '../../app/ports';
import { verifyPath } from './credentials';

/**
 * /confirm: "check your email". Kiln mails codes, not links; a link that does carry the code
 * (`?email=…&token=…`) is forwarded to /verify, which submits it.
 */
@injectable()
export class ConfirmVm {
  email = '';

  constructor(@inject(TYPES.Navigator) private readonly navigator: Navigator) {
    makeAutoObservable<ConfirmVm, 'navigator'>(this, { navigator: false }, { autoBind: true });
  }

  init(params: { email: string | null; token: string | null; type: string | null }): void {
    this.email = params.email?.trim() ?? '';
    if (this.email !== '' && params.token) {
      const extra: Record<string, string> = { code: params.token };
      if (params.type === 'email' || params.type === 'magiclink') extra['type'] = 'email';
      this.navigator.navigate(verifyPath(this.email, extra), { replace: true });
    }
  }

  get verifyHref(): string {
    return this.email === '' ? '/verify' : verifyPath(this.email);
  }
}
