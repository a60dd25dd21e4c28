import { type Result, err, ok } from '../shared/result.js';
import { USER_METADATA_MAX_CHARS } from './auth.constants.js';
import { type AuthValidationFailed, authValidationFailed } from './auth.errors.js';
import type { EmailAddress } from './email-address.js';

/** A JSON object as stored in user_metadata / app_metadata. */
export type JsonObject = Readonly<Record<string, unknown>>;

/** Kiln signs people in by email only. */
export const EMAIL_APP_METADATA: JsonObject = Object.freeze({ provider: 'email', providers: Object.freeze(['email']) });

/**
 * An account of the built-in auth (GoTrue's `auth.users`, the fields Kiln uses). `email` is the
 * normalised address; an address belongs to at most one account that is not deleted.
 */
export interface AuthUser {
  readonly id: string;
  /** The id of the user's email identity (GoTrue's `identities[0].identity_id`). */
  readonly identityId: string;
  readonly email: EmailAddress;
  /** The password hash (PasswordHasher format), or null for accounts made by a one-time code. */
  readonly passwordHash: string | null;
  readonly emailConfirmedAt: Date | null;
  readonly phone: string | null;
  readonly userMetadata: JsonObject;
  readonly appMetadata: JsonObject;
  readonly createdAt: Date;
  readonly updatedAt: Date;
  readonly lastSignInAt: Date | null;
  readonly confirmationSentAt: Date | null;
  readonly recoverySentAt: Date | null;
  /** The address an email change waits to confirm (GoTrue's `new_email`). */
  readonly emailChange: EmailAddress | null;
  readonly emailChangeSentAt: Date | null;
  /** Set by account soft-delete: the account can no longer sign in and its address is free again. */
  readonly deletedAt: Date | null;
}

/** The fields an update may set (targeted updates, so concurrent writers do not undo each other). */
export type AuthUserPatch = Partial<Omit<AuthUser, 'id' | 'identityId' | 'createdAt'>>;

export interface NewAuthUserInput {
  readonly id: string;
  readonly identityId: string;
  readonly email: EmailAddress;
  readonly passwordHash: string | null;
  readonly metadata: JsonObject;
}

/**
 * A new, unconfirmed account. Like GoTrue, user_metadata starts with the sign-up `data` plus
 * the identity's claims (email, email_verified, phone_verified, sub).
 */
export function createAuthUser(input: NewAuthUserInput, now: Date): AuthUser {
  return Object.freeze({
    id: input.id,
    identityId: input.identityId,
    email: input.email,
    passwordHash: input.passwordHash,
    emailConfirmedAt: null,
    phone: null,
    userMetadata: signUpMetadata(input.metadata, input.email, input.id),
    appMetadata: EMAIL_APP_METADATA,
    createdAt: now,
    updatedAt: now,
    lastSignInAt: null,
    confirmationSentAt: null,
    recoverySentAt: null,
    emailChange: null,
    emailChangeSentAt: null,
    deletedAt: null,
  });
}

function signUpMetadata(data: JsonObject, email: string, id: string): JsonObject {
  return Object.freeze({ ...data, email, email_verified: false, phone_verified: false, sub: id });
}

/**
 * What sign-up answers for an address that already has a confirmed account (GoTrue's
 * sanitizeUser): a user that looks freshly signed up but has a random id and no identities,
 * so the reply does not say whether the address is registered.
 */
export function obfuscatedUser(input: { id: string; email: EmailAddress; metadata: JsonObject }, now: Date): AuthUser {
  return Object.freeze({ ...createAuthUser({ ...input, identityId: input.id, passwordHash: null }, now), confirmationSentAt: now });
}

export const isConfirmed = (user: Pick<AuthUser, 'emailConfirmedAt'>): boolean => user.emailConfirmedAt !== null;
export const isDeleted = (user: Pick<AuthUser, 'deletedAt'>): boolean => user.deletedAt !== null;

/** The patch that confirms the address (GoTrue also flips user_metadata.email_verified). */
export function confirmationPatch(user: AuthUser, now: Date): AuthUserPatch {
  if (isConfirmed(user)) return {};
  return { emailConfirmedAt: now, userMetadata: Object.freeze({ ...user.userMetadata, email_verified: true }), updatedAt: now };
}

/** GoTrue's metadata update: each key replaces the old value; a null value removes the key. */
export function mergeMetadata(current: JsonObject, changes: JsonObject): JsonObject {
  const next: Record<string, unknown> = { ...current };
  for (const [key, value] of Object.entries(changes)) {
    if (value === null) delete next[key];
    else next[key] = value;
  }
  return Object.freeze(next);
}

/**
 * Reads untrusted `data` (sign-up, one-time code, PUT /user): absent means {}; otherwise a plain
 * JSON object whose serialisation stays under USER_METADATA_MAX_CHARS (it rides in every token).
 */
export function parseMetadata(raw: unknown): Result<JsonObject, AuthValidationFailed> {
  if (raw === undefined || raw === null) return ok(Object.freeze({}));
  if (typeof raw !== 'object' || Array.isArray(raw)) return err(authValidationFailed('User metadata must be a JSON object'));
  let text: string;
  try {
    text = JSON.stringify(raw);
  } catch {
    return err(authValidationFailed('User metadata must be a JSON object'));
  }
  if (text.length > USER_METADATA_MAX_CHARS) {
    return err(authValidationFailed(`User metadata must be at most ${USER_METADATA_MAX_CHARS} characters of JSON`));
  }
  return ok(Object.freeze(JSON.parse(text) as Record<string, unknown>));
}
