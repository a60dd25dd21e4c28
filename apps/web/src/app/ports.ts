// The web app's ports: what view-models depend on. Adapters (fetch, auth-js, localStorage,
// Radix toasts, analytics script) implement them and container.ts binds them; tests pass fakes.
import type { Result } from '@kiln/domain';

export const TYPES = {
  Http: Symbol.for('HttpClient'),
  Session: Symbol.for('SessionService'),
  Toasts: Symbol.for('Toasts'),
  Analytics: Symbol.for('Analytics'),
  Storage: Symbol.for('KeyValueStorage'),
  ProfileApi: Symbol.for('ProfileApi'),
  PlansApi: Symbol.for('PlansApi'),
  UsageApi: Symbol.for('UsageApi'),
  ReferralsApi: Symbol.for('ReferralsApi'),
  PaymentsApi: Symbol.for('PaymentsApi'),
  CurrencyApi: Symbol.for('CurrencyApi'),
  // added with the auth/routing work
  Navigator: Symbol.for('Navigator'),
  Timers: Symbol.for('Timers'),
  SavedPrompts: Symbol.for('SavedPrompts'),
  ProjectsApi: Symbol.for('ProjectsApi'),
  // added with the builder
  SandboxApi: Symbol.for('SandboxApi'),
  SandboxFeed: Symbol.for('SandboxFeed'),
  BuilderPreferences: Symbol.for('BuilderPreferencesStore'),
  // added with the builder's chat
  StreamingHttp: Symbol.for('StreamingHttpClient'),
  AiApi: Symbol.for('AiApi'),
  ChatPreferences: Symbol.for('ChatPreferencesStore'),
  // added with publishing
  HostingApi: Symbol.for('HostingApi'),
  // added with project databases
  DatabasesApi: Symbol.for('DatabasesApi'),
  // added with account deletion
  AccountApi: Symbol.for('AccountApi'),
  // added with the second factor (TOTP)
  TwoFactor: Symbol.for('TwoFactorService'),
  // added with the templates and the wizard
  TemplatesApi: Symbol.for('TemplatesApi'),
  // added with the file tree's actions (Export as zip)
  Download: Symbol.for('DownloadHttpClient'),
  // added with attachments (issue 18)
  AttachmentsApi: Symbol.for('AttachmentsApi'),
} as const;

/** JSON over HTTP to our API: bearer token attached, 3 tries in total (not aborted ones). */
export interface HttpClient {
  get<T>(path: string, options?: RequestOptions): Promise<T>;
  post<T>(path: string, body?: unknown, options?: RequestOptions): Promise<T>;
  patch<T>(path: string, body?: unknown, options?: RequestOptions): Promise<T>;
  /** `options.body`: the SPEC's hosting routes (DELETE /api/fly/destroy-app…) take a JSON body. */
  delete<T>(path: string, options?: DeleteOptions): Promise<T>;
}
export interface RequestOptions {
  readonly headers?: Readonly<Record<string, string>>;
  readonly signal?: AbortSignal;
  /** Send without a bearer token (public endpoints). */
  readonly anonymous?: boolean;
  /**
   * false: one try only, never repeated on a network failure or a 5xx reply (a request that
   * must not run twice, like an AI turn). Default true (SPEC §7: 3 tries in total).
   */
  readonly retry?: boolean;
  /** The request outlives the page (fetch keepalive): analytics sent as the page is left. */
  readonly keepalive?: boolean;
}
export interface DeleteOptions extends RequestOptions {
  readonly body?: unknown;
}
/** What a failed call throws: the reply's `detail` (or `message`), else 'Request failed'. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string | null,
    readonly body: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export interface SessionUser {
  readonly id: string;
  readonly email: string;
  /** SPEC §3: user_metadata.is_signup — set at sign-up until the email is verified. */
  readonly isSignup: boolean;
  readonly metadata: Readonly<Record<string, unknown>>;
}
/**
 * 'second-factor': signed in with the password (aal1) on an account with a verified authenticator
 * app: the code is still owed, so the app treats the visitor as not yet in (the API refuses too).
 */
export type SessionStatus = 'loading' | 'signed-in' | 'second-factor' | 'signed-out';
export interface AuthFailure {
  /** GoTrue's error code (invalid_credentials, otp_expired, weak_password, over_email_send_rate_limit…). */
  readonly code: string;
  readonly message: string;
}
/** The signed-in session (auth-js against /auth/v1). Observable: status and user are MobX-observable. */
export interface SessionService {
  readonly status: SessionStatus;
  readonly user: SessionUser | null;
  accessToken(): Promise<string | null>;
  signUp(input: { email: string; password: string; fullName?: string }): Promise<Result<void, AuthFailure>>;
  verifyCode(input: { email: string; code: string; type: 'signup' | 'email' | 'recovery' }): Promise<Result<void, AuthFailure>>;
  resendCode(email: string): Promise<Result<void, AuthFailure>>;
  signIn(input: { email: string; password: string }): Promise<Result<void, AuthFailure>>;
  requestPasswordReset(email: string): Promise<Result<void, AuthFailure>>;
  updatePassword(password: string): Promise<Result<void, AuthFailure>>;
  signOut(): Promise<void>;
}

export type ToastVariant = 'success' | 'error' | 'warning' | 'info';
/** A toast's one button (SPEC §3 Toast: action), e.g. "Try again"; pressing it closes the toast. */
export interface ToastAction {
  readonly label: string;
  readonly run: () => void;
}

export interface ToastInput {
  readonly title: string;
  readonly description?: string;
  readonly variant: ToastVariant;
  /** ms; default 4000 (SPEC §9). */
  readonly duration?: number;
  readonly action?: ToastAction;
}
/** SPEC §4 toasts: one visible at a time. */
export interface Toasts {
  show(toast: ToastInput): string;
  dismiss(id: string): void;
}

/** SPEC §7: page views and product events go through an analytics adapter. */
export interface Analytics {
  pageView(path: string): void;
  track(event: string, properties?: Readonly<Record<string, unknown>>): void;
  /** SPEC §5/§7 purchase tracking: planId, planName and a numeric planPrice (major units). */
  purchase(event: PurchaseInput): void;
}
export interface PurchaseInput {
  readonly planId: string;
  readonly planName: string;
  readonly planPrice: number;
  readonly currency?: 'USD' | 'INR';
}

/** Browser-local storage (saved prompts, referral code, preferences), as a port for tests. */
export interface KeyValueStorage {
  get(key: string): string | null;
  set(key: string, value: string): void;
  remove(key: string): void;
}

/** Local storage keys shared between features. */
export const STORAGE_KEYS = {
  referralCode: 'kiln.referral_code',
  savedPrompts: 'kiln.saved_prompts',
  colorMode: 'kiln.color_mode',
  returnTo: 'kiln.return_to',
  builderPreferences: 'kiln.builder_preferences',
  /** What a checkout in progress buys and where to return (billing/checkout-intent.ts). */
  checkoutIntent: 'kiln.checkout_intent',
} as const;

// ---------------------------------------------------------------------------------------------
// Added by the auth/routing work (issue: accounts in the browser). Additions only.
// ---------------------------------------------------------------------------------------------

/** Moves the browser to another in-app path (the router's navigate, outside React). */
export interface Navigator {
  navigate(to: string, options?: { readonly replace?: boolean }): void;
}

/** Time for view-models (countdowns, delays) so tests can drive it by hand. */
export interface Timers {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Calls `tick` every `ms`; returns a function that stops it. */
  every(ms: number, tick: () => void): () => void;
  /** Resolves after `ms`. */
  sleep(ms: number): Promise<void>;
}

/** SPEC §3 project store: saved prompts keyed by project id or 'home' (the landing prompt). */
export interface SavedPrompts {
  get(key: string): string | null;
  set(key: string, prompt: string): void;
  remove(key: string): void;
}
export const HOME_PROMPT_KEY = 'home';

/** GET/PATCH /api/profile and POST /api/profile/ensure (apps/api/src/profiles/dto). */
export interface ProfileApi {
  get(): Promise<ProfileDto>;
  update(changes: ProfileChanges): Promise<ProfileDto>;
  /** After sign-in: creates the profile if missing and applies a stored referral code. */
  ensure(referralCode: string | null): Promise<EnsureProfileResult>;
}
/** SPEC §3 Profile as the API sends it (snake_case, ISO dates). */
export interface ProfileDto {
  readonly id: string;
  readonly name: string;
  readonly email: string;
  readonly date_of_birth: string | null;
  readonly organization: string | null;
  readonly role: string;
  readonly subscription_plan: string;
  readonly subscription_id: string | null;
  readonly subscription_status: string | null;
  readonly billing_interval: string | null;
  readonly customer_id: string | null;
  readonly preferred_currency: string;
  readonly credits: number;
  readonly referral_credits: number;
  readonly extra_credits: number;
  readonly referral_code: string;
  readonly referred_by: string | null;
  readonly created_at: string;
  readonly updated_at: string;
  readonly last_sign_in_at: string | null;
  readonly billing_cycle_start_date: string | null;
  readonly billing_cycle_end_date: string | null;
  readonly first_purchased_date: string | null;
  readonly subscription_end_date: string | null;
  readonly pro_multiplier: number;
}
export interface ProfileChanges {
  readonly name?: string;
  readonly date_of_birth?: string | null;
  readonly organization?: string | null;
  readonly role?: string;
  readonly preferred_currency?: string;
}
export type ReferralOutcome =
  | { readonly applied: true; readonly bonus: number }
  | { readonly applied: false; readonly code: string; readonly detail: string };
export interface EnsureProfileResult {
  readonly profile: ProfileDto;
  readonly created: boolean;
  readonly referral: ReferralOutcome | null;
}

// ---------------------------------------------------------------------------------------------
// Added by the builder. Additions only.
// ---------------------------------------------------------------------------------------------

export type SidebarPosition = 'left' | 'right';
/** The chat panel's two tabs (SPEC §2: default tab1). */
export type ChatTab = 'tab1' | 'tab2';

/** SPEC §9 stored preferences of the builder (saved prompts are kept by SavedPrompts). */
export interface BuilderPreferences {
  readonly sidebarPosition: SidebarPosition;
  readonly sidebarVisible: boolean;
  readonly chatTab: ChatTab;
  /** Pixels. */
  readonly chatWidth: number;
}

/** Where the builder's preferences live between visits (local storage in the browser). */
export interface BuilderPreferencesStore {
  load(): BuilderPreferences;
  save(preferences: BuilderPreferences): void;
}

// ---------------------------------------------------------------------------------------------
// Added by the builder's chat. Additions only.
// ---------------------------------------------------------------------------------------------

/**
 * A request whose reply is read as it arrives (server-sent events after a POST). Tried once:
 * a stream that failed half-way cannot be repeated safely. A reply that is not 2xx throws
 * ApiError as HttpClient does (a 402 keeps its body, with `limit_type`).
 */
export interface StreamingHttpClient {
  postStream(path: string, body?: unknown, options?: RequestOptions): Promise<ReadableStream<Uint8Array>>;
}

/** A GET whose reply is a file (a zip), read whole as a Blob; a reply that is not 2xx throws ApiError as HttpClient does. Tried once. */
export interface DownloadHttpClient {
  download(path: string, options?: RequestOptions): Promise<Blob>;
}

/** The chat's own stored preference (beside the builder's layout preferences in local storage). */
export interface ChatPreferences {
  /** Plans of several tasks run at once, without asking (the turn's `auto_run`). */
  readonly autoRun: boolean;
}
export interface ChatPreferencesStore {
  load(): ChatPreferences;
  save(preferences: ChatPreferences): void;
}
/** Local storage key of the chat's preferences (STORAGE_KEYS holds the older ones). */
export const CHAT_PREFERENCES_KEY = 'kiln.builder_chat';

// ---------------------------------------------------------------------------------------------
// Added with the second factor (TOTP, auth-js's mfa API against /auth/v1/factors). Additions only.
// ---------------------------------------------------------------------------------------------

/** A verified authenticator app of the account. */
export interface TotpFactorView {
  readonly id: string;
  readonly friendlyName: string;
  /** ISO date. */
  readonly createdAt: string;
}

/** An enrolment waiting for its first code: shown once, as a QR code and as a key to type. */
export interface TotpEnrolment {
  readonly factorId: string;
  /** `data:image/svg+xml;…` URL of the QR code. */
  readonly qrCode: string;
  /** The base32 key, for typing into the app by hand. */
  readonly secret: string;
}

/** Second factors of the signed-in account. */
export interface TwoFactorService {
  /** The verified authenticator apps. */
  list(): Promise<Result<readonly TotpFactorView[], AuthFailure>>;
  enroll(): Promise<Result<TotpEnrolment, AuthFailure>>;
  /** The first code from the app: the factor becomes verified and the session aal2. */
  confirmEnrolment(factorId: string, code: string): Promise<Result<void, AuthFailure>>;
  remove(factorId: string): Promise<Result<void, AuthFailure>>;
  /** After a password sign-in ('second-factor'): the code of any verified app raises the session to aal2. */
  verifySignIn(code: string): Promise<Result<void, AuthFailure>>;
}
