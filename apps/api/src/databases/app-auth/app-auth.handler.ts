import type { IncomingMessage, ServerResponse } from 'node:http';
import { Logger } from '@nestjs/common';
import { Hs256AppTokenSigner, type ProjectAuthStores } from '@kiln/adapters';
import {
  type AuthAction,
  type AuthUseCases,
  type Clock,
  type DatabaseConnectionFacts,
  type DatabaseNotConnected,
  type IdGenerator,
  type Mailer,
  type PasswordHasher,
  type RandomSource,
  type RateLimiter,
  type Result,
  type SecretHasher,
  authSettings,
  createAuthUseCases,
  parseEmail,
} from '@kiln/domain';
import { jwtVerify } from 'jose';
import { GoTrueHttpError, goTrueErrorFor, orThrow } from '../../auth/gotrue-errors.js';
import { bearerTokenOf, readGrantType, readLogoutScope, readPasswordGrant, readRefreshGrant, readSignUp, readUserUpdate } from '../../auth/gotrue-requests.js';
import { sessionJson, settingsJson, userJson } from '../../auth/gotrue-wire.js';
import { APP_AUTH_MAX_BODY_BYTES, applyCors, readJsonBody, writeError, writeJson } from './app-auth-http.js';

export interface AppAuthHandlerDeps {
  /** GetDatabaseConnection: the project's JWT secret by ref. */
  readonly connections: { byRef(ref: string): Promise<Result<DatabaseConnectionFacts, DatabaseNotConnected>> };
  /** The app users' stores of a project (PgAppAuthStores, or InMemoryAppAuthStores in tests). */
  readonly stores: { forRef(ref: string): Promise<ProjectAuthStores> };
  /** Shared by every project; keys are `app:<ref>:<client address>`. */
  readonly rateLimiter: RateLimiter;
  readonly passwords: PasswordHasher;
  readonly hasher: SecretHasher;
  readonly clock: Clock;
  readonly random: RandomSource;
  readonly ids: IdGenerator;
  /** The project's data origin (tokens' `iss` is `<origin>/auth/v1`). */
  readonly dataUrlFor: (ref: string) => string;
  readonly maxBodyBytes?: number;
}

/**
 * App users have no mail set-up: sign-up confirms at once (GoTrue's mailer_autoconfirm), so the
 * confirmation code the sign-up use case stores is never needed and nothing is sent.
 */
const NO_MAIL: Mailer = { send: () => Promise.resolve() };

const notFound = () => new GoTrueHttpError(404, 'not_found', 'Not found');
const notAvailable = () =>
  new GoTrueHttpError(404, 'not_found', 'App sign-in has email and password only: there is no mail for codes, magic links or recovery');
const methodNotAllowed = () => new GoTrueHttpError(405, 'method_not_allowed', 'Method not allowed');
const invalidApiKey = () => new GoTrueHttpError(401, 'invalid_api_key', 'Invalid API key');
const notConnected = () => new GoTrueHttpError(404, 'not_found', 'This project has no database');
const userExists = () => new GoTrueHttpError(422, 'user_already_exists', 'User already registered');

/**
 * GoTrue-compatible `/auth/v1/*` for a project's own end users, on its data origin
 * (docs/databases.md "App sign-in"). Kiln's auth use cases over the project's own user store,
 * tokens HS256 with the project's secret; every request must carry the project's anon key.
 * `handle(ref, req, res)` is what the data-origin dispatcher calls for `/auth/v1/*`.
 */
export class AppAuthHandler {
  private readonly logger = new Logger('AppAuth');

  constructor(private readonly deps: AppAuthHandlerDeps) {}

  handle(ref: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
    return this.serve(ref, req, res).catch((error: unknown) => writeError(req, res, error, (m) => this.logger.warn(m)));
  }

  private async serve(ref: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (applyCors(req, res)) return;
    const url = new URL(req.url ?? '/', 'http://data.invalid');
    const route = url.pathname.replace(/^\/auth\/v1/, '').replace(/\/+$/, '') || '/';
    const facts = await this.deps.connections.byRef(ref);
    if (!facts.ok) throw notConnected();
    await this.requireAnonKey(req, url, ref, facts.value.jwtSecret);
    const method = req.method ?? 'GET';
    const stores = await this.deps.stores.forRef(ref);
    const auth = this.useCases(ref, facts.value.jwtSecret, stores);
    const client = req.socket.remoteAddress ?? 'unknown';
    const throttle = async (action: AuthAction) => orThrow(await auth.throttle.execute({ action, clientKey: `app:${ref}:${client}` }));

    switch (route) {
      case '/signup':
        if (method !== 'POST') throw methodNotAllowed();
        await throttle('signup');
        return writeJson(res, 200, await this.signUp(auth, stores, await this.body(req)));
      case '/token': {
        if (method !== 'POST') throw methodNotAllowed();
        const grant = readGrantType(url.searchParams.get('grant_type') ?? undefined);
        const body = await this.body(req);
        if (grant === 'password') {
          await throttle('token_password');
          return writeJson(res, 200, sessionJson(orThrow(await auth.signInWithPassword.execute(readPasswordGrant(body)))));
        }
        await throttle('token_refresh');
        return writeJson(res, 200, sessionJson(orThrow(await auth.refreshSession.execute(readRefreshGrant(body)))));
      }
      case '/user': {
        const claims = await this.authenticate(auth, req);
        if (method === 'GET') return writeJson(res, 200, userJson(orThrow(await auth.getUser.execute({ userId: claims.userId }))));
        if (method !== 'PUT') throw methodNotAllowed();
        const changes = readUserUpdate(await this.body(req));
        return writeJson(res, 200, userJson(orThrow(await auth.updateUser.execute({ userId: claims.userId, sessionId: claims.sessionId, ...changes }))));
      }
      case '/logout': {
        if (method !== 'POST') throw methodNotAllowed();
        const scope = readLogoutScope(url.searchParams.get('scope') ?? undefined);
        const claims = await this.authenticate(auth, req);
        orThrow(await auth.logout.execute({ userId: claims.userId, sessionId: claims.sessionId ?? '', scope }));
        res.statusCode = 204;
        res.end();
        return;
      }
      case '/settings':
        return writeJson(res, 200, { ...settingsJson(), mailer_autoconfirm: true });
      case '/health':
        return writeJson(res, 200, { version: 'kiln', name: 'GoTrue', description: 'Kiln app sign-in, GoTrue wire-compatible' });
      case '/verify':
      case '/otp':
      case '/resend':
      case '/recover':
      case '/magiclink':
        throw notAvailable();
      default:
        throw notFound();
    }
  }

  /**
   * Sign-up with autoconfirm: the account is confirmed at once and signed in, as GoTrue answers
   * with mailer_autoconfirm (a session). An address that already has an account is a 422
   * user_already_exists, as GoTrue answers with autoconfirm on.
   */
  private async signUp(auth: AuthUseCases, stores: ProjectAuthStores, body: unknown) {
    const input = readSignUp(body);
    // A taken address is answered before the use case, which would re-send a confirmation code.
    const address = parseEmail(input.email);
    if (address.ok && (await stores.users.findByEmail(address.value))?.emailConfirmedAt) throw userExists();
    const signedUp = orThrow(await auth.signUp.execute(input));
    if (signedUp.obfuscated) throw userExists();
    if (signedUp.user.emailConfirmedAt === null) {
      const now = this.deps.clock.now();
      await stores.users.update(signedUp.user.id, { emailConfirmedAt: now, updatedAt: now });
    }
    return sessionJson(orThrow(await auth.signInWithPassword.execute({ email: input.email, password: input.password })));
  }

  private useCases(ref: string, jwtSecret: string, stores: ProjectAuthStores): AuthUseCases {
    const { passwords, hasher, clock, random, ids, rateLimiter } = this.deps;
    const signer = new Hs256AppTokenSigner(ref, jwtSecret, clock);
    return createAuthUseCases(
      { ...stores, rateLimiter, passwords, hasher, signer, mailer: NO_MAIL, clock, random, ids },
      authSettings({ issuer: `${this.deps.dataUrlFor(ref)}/auth/v1` }),
    );
  }

  private body(req: IncomingMessage): Promise<unknown> {
    return readJsonBody(req, this.deps.maxBodyBytes ?? APP_AUTH_MAX_BODY_BYTES);
  }

  private async authenticate(auth: AuthUseCases, req: IncomingMessage) {
    const verified = await auth.verifier.verify(bearerTokenOf(req.headers.authorization));
    if (!verified.ok) throw goTrueErrorFor(verified.error);
    return verified.value;
  }

  /** The `apikey` header (or query parameter) must be this project's anon key: HS256 with its secret, role anon, its ref. */
  private async requireAnonKey(req: IncomingMessage, url: URL, ref: string, jwtSecret: string): Promise<void> {
    const header = req.headers['apikey'];
    const key = (Array.isArray(header) ? header[0] : header) ?? url.searchParams.get('apikey');
    if (!key) throw invalidApiKey();
    try {
      const { payload } = await jwtVerify(key, new TextEncoder().encode(jwtSecret), { algorithms: ['HS256'] });
      if (payload['role'] !== 'anon' || payload['ref'] !== ref) throw invalidApiKey();
    } catch {
      throw invalidApiKey();
    }
  }
}
