import { AUTH_AUDIENCE, AUTH_ROLE, type AuthUser, type Factor, type IssuedSession, isConfirmed } from '@kiln/domain';

/** Dates as GoTrue writes them (RFC 3339, UTC); null stays null. */
const time = (date: Date | null): string | null => (date === null ? null : date.toISOString());

export interface GoTrueIdentity {
  readonly identity_id: string;
  readonly id: string;
  readonly user_id: string;
  readonly identity_data: Readonly<Record<string, unknown>>;
  readonly provider: 'email';
  readonly last_sign_in_at: string | null;
  readonly created_at: string;
  readonly updated_at: string;
  readonly email: string;
}

/** A second factor as GoTrue lists it in the user's `factors` (internal/models/factor.go); the secret never. */
export interface GoTrueFactor {
  readonly id: string;
  readonly friendly_name: string;
  readonly factor_type: 'totp';
  readonly status: 'verified' | 'unverified';
  readonly created_at: string;
  readonly updated_at: string;
}

export const factorJson = (factor: Factor): GoTrueFactor => ({
  id: factor.id,
  friendly_name: factor.friendlyName,
  factor_type: factor.factorType,
  status: factor.status,
  created_at: factor.createdAt.toISOString(),
  updated_at: factor.updatedAt.toISOString(),
});

/** GoTrue's user object (internal/models/user.go), the fields GOTRUE.md lists always present. */
export interface GoTrueUser {
  readonly id: string;
  readonly aud: string;
  readonly role: string;
  readonly email: string;
  readonly email_confirmed_at: string | null;
  readonly phone: string;
  readonly confirmation_sent_at: string | null;
  readonly confirmed_at: string | null;
  readonly recovery_sent_at: string | null;
  readonly last_sign_in_at: string | null;
  readonly app_metadata: Readonly<Record<string, unknown>>;
  readonly user_metadata: Readonly<Record<string, unknown>>;
  readonly identities: readonly GoTrueIdentity[];
  readonly created_at: string;
  readonly updated_at: string;
  readonly is_anonymous: boolean;
  /** Present when the user has factors (GoTrue: omitempty); auth-js's mfa API reads it. */
  readonly factors?: readonly GoTrueFactor[];
  readonly new_email?: string;
  readonly email_change_sent_at?: string;
}

/**
 * A user as /auth/v1 answers it. `identities: 'none'` is the obfuscated user of a repeated
 * sign-up (GoTrue's sanitizeUser: empty identities). `factors` are the user's second factors.
 */
export function userJson(user: AuthUser, options: { identities?: 'email' | 'none'; factors?: readonly Factor[] } = {}): GoTrueUser {
  const factors = options.factors ?? [];
  const identity: GoTrueIdentity = {
    identity_id: user.identityId,
    id: user.id,
    user_id: user.id,
    identity_data: { email: user.email, email_verified: isConfirmed(user), phone_verified: false, sub: user.id },
    provider: 'email',
    last_sign_in_at: time(user.lastSignInAt),
    created_at: user.createdAt.toISOString(),
    updated_at: user.updatedAt.toISOString(),
    email: user.email,
  };
  return {
    id: user.id,
    aud: AUTH_AUDIENCE,
    role: AUTH_ROLE,
    email: user.email,
    email_confirmed_at: time(user.emailConfirmedAt),
    phone: user.phone ?? '',
    confirmation_sent_at: time(user.confirmationSentAt),
    confirmed_at: time(user.emailConfirmedAt),
    recovery_sent_at: time(user.recoverySentAt),
    last_sign_in_at: time(user.lastSignInAt),
    app_metadata: user.appMetadata,
    user_metadata: user.userMetadata,
    identities: options.identities === 'none' ? [] : [identity],
    created_at: user.createdAt.toISOString(),
    updated_at: user.updatedAt.toISOString(),
    is_anonymous: false,
    ...(factors.length > 0 ? { factors: factors.map(factorJson) } : {}),
    ...(user.emailChange !== null ? { new_email: user.emailChange } : {}),
    ...(user.emailChange !== null && user.emailChangeSentAt !== null ? { email_change_sent_at: user.emailChangeSentAt.toISOString() } : {}),
  };
}

/** GoTrue's AccessTokenResponse: what auth-js recognises as a session. */
export interface GoTrueSession {
  readonly access_token: string;
  readonly token_type: 'bearer';
  readonly expires_in: number;
  readonly expires_at: number;
  readonly refresh_token: string;
  readonly user: GoTrueUser;
  readonly weak_password?: { readonly reasons: readonly string[]; readonly message: string };
}

/** `factors`: the user's second factors (auth-js decides from them whether aal2 is next). */
export function sessionJson(session: IssuedSession, factors: readonly Factor[] = []): GoTrueSession {
  return {
    access_token: session.accessToken,
    token_type: session.tokenType,
    expires_in: session.expiresIn,
    expires_at: session.expiresAt,
    refresh_token: session.refreshToken,
    user: userJson(session.user, { factors }),
    ...(session.weakPassword ? { weak_password: { reasons: session.weakPassword.reasons, message: session.weakPassword.message } } : {}),
  };
}

/** GET /settings: what this server offers, in GoTrue's shape (auth-js and dashboards read it). */
export function settingsJson() {
  return {
    external: {
      anonymous_users: false,
      apple: false,
      azure: false,
      bitbucket: false,
      discord: false,
      email: true,
      facebook: false,
      figma: false,
      github: false,
      gitlab: false,
      google: false,
      kakao: false,
      keycloak: false,
      linkedin_oidc: false,
      notion: false,
      phone: false,
      slack_oidc: false,
      spotify: false,
      twitch: false,
      twitter: false,
      workos: false,
      zoom: false,
    },
    disable_signup: false,
    mailer_autoconfirm: false,
    phone_autoconfirm: false,
    sms_provider: '',
    saml_enabled: false,
  };
}
