import type { AuthUserRepository } from '../auth/auth-user-repository.port.js';
import { isDeleted } from '../auth/auth-user.entity.js';
import { type AuthUserNotFound, authUserNotFound } from '../auth/auth.errors.js';
import type { AuthAssuranceLevel } from '../auth/auth-session.js';
import type { Clock } from '../shared/clock.port.js';
import type { IdGenerator } from '../shared/ids.port.js';
import type { RandomSource } from '../shared/random.port.js';
import { type Result, err, ok } from '../shared/result.js';
import { base32Encode } from './base32.js';
import { type Factor, isVerifiedFactor, otpauthUri } from './factor.entity.js';
import type { FactorStore } from './factor-store.port.js';
import { MFA_DEFAULT_ISSUER, MFA_FRIENDLY_NAME_MAX_CHARS, MFA_MAX_ENROLLED_FACTORS, TOTP_SECRET_BYTES } from './mfa.constants.js';
import {
  type FactorNameConflict,
  type InsufficientAal,
  type MfaValidationFailed,
  type TooManyFactors,
  factorNameConflict,
  insufficientAal,
  mfaValidationFailed,
  tooManyFactors,
} from './mfa.errors.js';
import type { QrCodeRenderer } from './qr-code-renderer.port.js';

export interface EnrollFactorInput {
  readonly userId: string;
  /** The level of the session asking. */
  readonly aal: AuthAssuranceLevel;
  readonly factorType: string;
  readonly friendlyName?: string;
  readonly issuer?: string;
}

/** What the person needs once to set up their authenticator app (POST /factors). */
export interface EnrolledFactor {
  readonly factor: Factor;
  /** The base32 secret, for typing by hand. Shown once: it is never returned again. */
  readonly secret: string;
  readonly uri: string;
  /** The QR code of `uri`, an SVG document. */
  readonly qrSvg: string;
}

export type EnrollFactorError = MfaValidationFailed | InsufficientAal | TooManyFactors | FactorNameConflict | AuthUserNotFound;

/**
 * POST /factors: a new, unverified TOTP factor with a fresh random secret. Like GoTrue: once a
 * verified factor exists, only an aal2 session may add another; an abandoned enrolment (an
 * unverified factor) is replaced; ten factors at most; friendly names are unique per account.
 */
export class EnrollFactor {
  constructor(
    private readonly factors: FactorStore,
    private readonly users: AuthUserRepository,
    private readonly qr: QrCodeRenderer,
    private readonly random: RandomSource,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(input: EnrollFactorInput): Promise<Result<EnrolledFactor, EnrollFactorError>> {
    if (input.factorType !== 'totp') return err(mfaValidationFailed('factor_type must be totp: Kiln offers authenticator-app factors only'));
    const friendlyName = (input.friendlyName ?? '').trim();
    if (friendlyName.length > MFA_FRIENDLY_NAME_MAX_CHARS) return err(mfaValidationFailed(`friendly_name must be at most ${MFA_FRIENDLY_NAME_MAX_CHARS} characters`));
    const issuer = (input.issuer ?? '').trim() || MFA_DEFAULT_ISSUER;
    if (issuer.length > MFA_FRIENDLY_NAME_MAX_CHARS) return err(mfaValidationFailed(`issuer must be at most ${MFA_FRIENDLY_NAME_MAX_CHARS} characters`));

    const user = await this.users.findById(input.userId);
    if (!user || isDeleted(user)) return err(authUserNotFound());
    const existing = await this.factors.listForUser(user.id);
    const verified = existing.filter(isVerifiedFactor);
    if (verified.length > 0 && input.aal !== 'aal2') return err(insufficientAal('AAL2 required to enroll a new factor'));
    if (verified.length >= MFA_MAX_ENROLLED_FACTORS) return err(tooManyFactors());
    if (friendlyName !== '' && verified.some((factor) => factor.friendlyName === friendlyName)) return err(factorNameConflict(friendlyName));
    await this.factors.deleteUnverified(user.id);

    const now = this.clock.now();
    const secret = base32Encode(Array.from({ length: TOTP_SECRET_BYTES }, () => this.random.nextInt(256)));
    const factor: Factor = Object.freeze({
      id: this.ids.next(),
      userId: user.id,
      friendlyName,
      factorType: 'totp',
      status: 'unverified',
      secret,
      lastUsedStep: null,
      createdAt: now,
      updatedAt: now,
    });
    // A concurrent enrolment may have taken the name since the check above.
    if ((await this.factors.insert(factor)) === 'name_taken') return err(factorNameConflict(friendlyName));
    const uri = otpauthUri({ secret, issuer, account: user.email });
    return ok(Object.freeze({ factor, secret, uri, qrSvg: await this.qr.svg(uri) }));
  }
}
