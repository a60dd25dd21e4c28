import type { Mailer } from '../mail/mailer.port.js';
import type { Clock } from '../shared/clock.port.js';
import type { IdGenerator } from '../shared/ids.port.js';
import type { RandomSource } from '../shared/random.port.js';
import { type Result, err, ok } from '../shared/result.js';
import { MAIL_COOLDOWN_MS } from './auth.constants.js';
import { type MailRateLimited, mailRateLimited } from './auth.errors.js';
import { codeMail } from './auth-mail.js';
import type { EmailAddress } from './email-address.js';
import { type CodePurpose, type OneTimeCode, newCode } from './one-time-code.js';
import type { OneTimeCodeStore } from './one-time-code-store.port.js';
import type { SecretHasher } from './secret-hasher.port.js';

export interface CodeSenderDeps {
  readonly codes: OneTimeCodeStore;
  readonly mailer: Mailer;
  readonly hasher: SecretHasher;
  readonly random: RandomSource;
  readonly ids: IdGenerator;
  readonly clock: Clock;
  readonly productName: string;
}

/**
 * Issues a one-time code under the mail cooldown and mails it. With `userId` null it issues a
 * decoy and mails nothing, so an address without an account answers exactly like one with
 * (first request 200, a second within the cooldown 429) and nothing is revealed.
 */
export class CodeSender {
  constructor(private readonly deps: CodeSenderDeps) {}

  async send(input: { email: EmailAddress; purpose: CodePurpose; userId: string | null }): Promise<Result<OneTimeCode, MailRateLimited>> {
    const { codes, mailer, productName } = this.deps;
    const { code, record } = newCode(this.deps, input);
    const outcome = await codes.issue(record, MAIL_COOLDOWN_MS);
    if (outcome.kind === 'cooling_down') return err(mailRateLimited(Math.max(1, Math.ceil(outcome.retryAfterMs / 1000))));
    if (code !== null) {
      try {
        await mailer.send(codeMail({ to: input.email, purpose: input.purpose, code, productName }));
      } catch (error) {
        // Undelivered: withdraw it so the person can ask again at once instead of waiting a minute.
        await codes.discard(record.id);
        throw error;
      }
    }
    return ok(record);
  }
}
