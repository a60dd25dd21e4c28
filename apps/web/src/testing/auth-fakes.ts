// Test doubles for the auth, routing and referral view-models. Plain classes that record what
// happened; results are scripted per call.
import { err, ok, type Result } from '@kiln/domain';
import { makeAutoObservable } from 'mobx';
import type {
  Analytics,
  AuthFailure,
  EnsureProfileResult,
  Navigator,
  ProfileApi,
  ProfileChanges,
  ProfileDto,
  PurchaseInput,
  ReferralOutcome,
  SavedPrompts,
  SessionService,
  SessionStatus,
  SessionUser,
  Timers,
} from '../app/ports';

export const failure = (code: string, message = code): Result<void, AuthFailure> => err({ code, message });
export const success: Result<void, AuthFailure> = ok(undefined);

export function sessionUser(overrides: Partial<SessionUser> = {}): SessionUser {
  return { id: 'user-1', email: 'ada@example.com', isSignup: false, metadata: {}, ...overrides };
}

type Call = { readonly method: string; readonly input: unknown };

/** A SessionService whose replies are queued per method (default: success). */
export class ScriptedSession implements SessionService {
  status: SessionStatus;
  user: SessionUser | null;
  readonly calls: Call[] = [];
  /** The account has a verified authenticator app: a right password leaves the session owing its code. */
  secondFactorOnSignIn = false;
  private readonly replies = new Map<string, Result<void, AuthFailure>[]>();

  constructor(status: SessionStatus = 'signed-out', user: SessionUser | null = null) {
    this.status = status;
    this.user = user ?? (status === 'signed-in' ? sessionUser() : null);
    makeAutoObservable<ScriptedSession, 'replies'>(this, { calls: false, replies: false }, { autoBind: true });
  }

  /** Queues the reply of the next call of `method`. */
  reply(method: string, result: Result<void, AuthFailure>): this {
    const queue = this.replies.get(method) ?? [];
    queue.push(result);
    this.replies.set(method, queue);
    return this;
  }

  setState(status: SessionStatus, user: SessionUser | null = status === 'signed-in' ? sessionUser() : null): void {
    this.status = status;
    this.user = user;
  }

  callsOf(method: string): unknown[] {
    return this.calls.filter((c) => c.method === method).map((c) => c.input);
  }

  async accessToken(): Promise<string | null> {
    return this.status === 'signed-in' ? 'access-token' : null;
  }
  signUp(input: { email: string; password: string; fullName?: string }) {
    return this.answer('signUp', input);
  }
  verifyCode(input: { email: string; code: string; type: 'signup' | 'email' | 'recovery' }) {
    return this.answer('verifyCode', input, () => this.setState('signed-in', sessionUser({ email: input.email })));
  }
  resendCode(email: string) {
    return this.answer('resendCode', email);
  }
  signIn(input: { email: string; password: string }) {
    return this.answer('signIn', input, () => this.setState(this.secondFactorOnSignIn ? 'second-factor' : 'signed-in', sessionUser({ email: input.email })));
  }
  requestPasswordReset(email: string) {
    return this.answer('requestPasswordReset', email);
  }
  updatePassword(password: string) {
    return this.answer('updatePassword', password);
  }
  async signOut(): Promise<void> {
    this.calls.push({ method: 'signOut', input: null });
    this.setState('signed-out', null);
  }

  private async answer(method: string, input: unknown, onSuccess?: () => void): Promise<Result<void, AuthFailure>> {
    this.calls.push({ method, input });
    await Promise.resolve();
    const result = this.replies.get(method)?.shift() ?? success;
    if (result.ok) onSuccess?.();
    return result;
  }
}

export class RecordingNavigator implements Navigator {
  readonly visits: { to: string; replace: boolean }[] = [];
  navigate(to: string, options?: { readonly replace?: boolean }): void {
    this.visits.push({ to, replace: options?.replace ?? false });
  }
  get last(): string | null {
    return this.visits.at(-1)?.to ?? null;
  }
}

/** A manual clock: `advance(ms)` moves time and fires due `every` callbacks. */
export class ManualTimers implements Timers {
  private current: number;
  private readonly intervals = new Set<{ ms: number; next: number; tick: () => void }>();

  constructor(start = 1_700_000_000_000) {
    this.current = start;
  }

  now(): number {
    return this.current;
  }

  every(ms: number, tick: () => void): () => void {
    const entry = { ms, next: this.current + ms, tick };
    this.intervals.add(entry);
    return () => this.intervals.delete(entry);
  }

  async sleep(ms: number): Promise<void> {
    this.advance(ms);
  }

  get running(): number {
    return this.intervals.size;
  }

  advance(ms: number): void {
    const until = this.current + ms;
    for (;;) {
      const due = [...this.intervals].filter((i) => i.next <= until).sort((a, b) => a.next - b.next)[0];
      if (!due) break;
      this.current = due.next;
      due.next += due.ms;
      due.tick();
    }
    this.current = until;
  }
}

export class RecordingAnalytics implements Analytics {
  readonly events: { event: string; properties?: Readonly<Record<string, unknown>> }[] = [];
  readonly pages: string[] = [];
  pageView(path: string): void {
    this.pages.push(path);
  }
  track(event: string, properties?: Readonly<Record<string, unknown>>): void {
    this.events.push({ event, properties });
  }
  readonly purchases: PurchaseInput[] = [];
  purchase(event: PurchaseInput): void {
    this.purchases.push(event);
  }
}

export function profileDto(overrides: Partial<ProfileDto> = {}): ProfileDto {
  return {
    id: 'user-1',
    name: 'Ada',
    email: 'ada@example.com',
    date_of_birth: null,
    organization: null,
    role: 'other',
    subscription_plan: 'free',
    subscription_id: null,
    subscription_status: null,
    billing_interval: null,
    customer_id: null,
    preferred_currency: 'USD',
    credits: 5,
    referral_credits: 0,
    extra_credits: 0,
    referral_code: 'K7QX2M',
    referred_by: null,
    created_at: '2025-01-01T00:00:00.000Z',
    updated_at: '2025-01-01T00:00:00.000Z',
    last_sign_in_at: null,
    billing_cycle_start_date: null,
    billing_cycle_end_date: null,
    first_purchased_date: null,
    subscription_end_date: null,
    pro_multiplier: 1,
    ...overrides,
  };
}

export class FakeProfileApi implements ProfileApi {
  profile: ProfileDto = profileDto();
  referral: ReferralOutcome | null = null;
  failEnsure: Error | null = null;
  failUpdate: Error | null = null;
  readonly ensured: (string | null)[] = [];
  readonly updates: ProfileChanges[] = [];

  async get(): Promise<ProfileDto> {
    return this.profile;
  }
  async update(changes: ProfileChanges): Promise<ProfileDto> {
    if (this.failUpdate) throw this.failUpdate;
    this.updates.push(changes);
    this.profile = { ...this.profile, ...changes } as ProfileDto;
    return this.profile;
  }
  async ensure(referralCode: string | null): Promise<EnsureProfileResult> {
    this.ensured.push(referralCode);
    if (this.failEnsure) throw this.failEnsure;
    return { profile: this.profile, created: this.ensured.length === 1, referral: referralCode === null ? null : this.referral };
  }
}

export class MemorySavedPrompts implements SavedPrompts {
  readonly prompts = new Map<string, string>();
  get(key: string): string | null {
    return this.prompts.get(key) ?? null;
  }
  set(key: string, prompt: string): void {
    this.prompts.set(key, prompt);
  }
  remove(key: string): void {
    this.prompts.delete(key);
  }
}

/** Lets pending promise callbacks (and runInAction blocks after awaits) run. */
export async function settle(): Promise<void> {
  for (let i = 0; i < 20; i += 1) await Promise.resolve();
}
