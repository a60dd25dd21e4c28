import type { DomainError } from '../shared/domain-error.js';
import type { WeakPasswordReason } from './password-policy.js';

export {
  type AccessTokenError,
  type InvalidAccessToken,
  type MissingAccessToken,
  type SecondFactorRequired,
  type SessionEnded,
  invalidAccessToken,
  missingAccessToken,
  secondFactorRequired,
  sessionEnded,
} from './access-token.port.js';

// Messages are GoTrue's wording, so a client showing `message` reads what Supabase users know.

export type AuthValidationFailed = DomainError<'AUTH.VALIDATION_FAILED'>;
export const authValidationFailed = (message: string): AuthValidationFailed => ({ code: 'AUTH.VALIDATION_FAILED', message });

export interface WeakPassword extends DomainError<'AUTH.WEAK_PASSWORD'> {
  readonly reasons: readonly WeakPasswordReason[];
}
export const weakPassword = (reasons: readonly WeakPasswordReason[], message: string): WeakPassword => ({
  code: 'AUTH.WEAK_PASSWORD',
  message,
  reasons,
});

export type SamePassword = DomainError<'AUTH.SAME_PASSWORD'>;
export const samePassword = (): SamePassword => ({
  code: 'AUTH.SAME_PASSWORD',
  message: 'New password should be different from the old password.',
});

/** Unknown email, wrong password, deleted account, no password set: one error, one message. */
export type InvalidCredentials = DomainError<'AUTH.INVALID_CREDENTIALS'>;
export const invalidCredentials = (): InvalidCredentials => ({ code: 'AUTH.INVALID_CREDENTIALS', message: 'Invalid login credentials' });

export type EmailNotConfirmed = DomainError<'AUTH.EMAIL_NOT_CONFIRMED'>;
export const emailNotConfirmed = (): EmailNotConfirmed => ({ code: 'AUTH.EMAIL_NOT_CONFIRMED', message: 'Email not confirmed' });

/** Wrong, used, expired or exhausted code: one error, so a guesser learns nothing. */
export type OtpExpired = DomainError<'AUTH.OTP_EXPIRED'>;
export const otpExpired = (): OtpExpired => ({ code: 'AUTH.OTP_EXPIRED', message: 'Token has expired or is invalid' });

export interface MailRateLimited extends DomainError<'AUTH.MAIL_RATE_LIMITED'> {
  readonly retryAfterSeconds: number;
}
export const mailRateLimited = (retryAfterSeconds: number): MailRateLimited => ({
  code: 'AUTH.MAIL_RATE_LIMITED',
  message: `For security purposes, you can only request this after ${retryAfterSeconds} seconds.`,
  retryAfterSeconds,
});

export interface RequestRateLimited extends DomainError<'AUTH.REQUEST_RATE_LIMITED'> {
  readonly retryAfterSeconds: number;
}
export const requestRateLimited = (retryAfterSeconds: number): RequestRateLimited => ({
  code: 'AUTH.REQUEST_RATE_LIMITED',
  message: 'Request rate limit reached',
  retryAfterSeconds,
});

export type RefreshTokenNotFound = DomainError<'AUTH.REFRESH_TOKEN_NOT_FOUND'>;
export const refreshTokenNotFound = (): RefreshTokenNotFound => ({
  code: 'AUTH.REFRESH_TOKEN_NOT_FOUND',
  message: 'Invalid Refresh Token: Refresh Token Not Found',
});

export type RefreshTokenAlreadyUsed = DomainError<'AUTH.REFRESH_TOKEN_ALREADY_USED'>;
export const refreshTokenAlreadyUsed = (): RefreshTokenAlreadyUsed => ({
  code: 'AUTH.REFRESH_TOKEN_ALREADY_USED',
  message: 'Invalid Refresh Token: Already Used',
});

export type AuthUserNotFound = DomainError<'AUTH.USER_NOT_FOUND'>;
export const authUserNotFound = (): AuthUserNotFound => ({
  code: 'AUTH.USER_NOT_FOUND',
  message: 'User from sub claim in JWT does not exist',
});

export type EmailExists = DomainError<'AUTH.EMAIL_EXISTS'>;
export const emailExists = (): EmailExists => ({
  code: 'AUTH.EMAIL_EXISTS',
  message: 'A user with this email address has already been registered',
});

export type AuthError =
  | AuthValidationFailed
  | WeakPassword
  | SamePassword
  | InvalidCredentials
  | EmailNotConfirmed
  | OtpExpired
  | MailRateLimited
  | RequestRateLimited
  | RefreshTokenNotFound
  | RefreshTokenAlreadyUsed
  | AuthUserNotFound
  | EmailExists;
