import type { RestError, RestResult } from '@kiln/domain';
import { errors as joseErrors, jwtVerify } from 'jose';
import type { RequestRole } from './pg-data-api.js';

const jwtError = (message: string, code = 'PGRST301', status = 401): { ok: false; error: RestError } => ({
  ok: false,
  error: { status, code, message, details: null, hint: null },
});

export interface Caller {
  readonly role: RequestRole;
  readonly claims: Record<string, unknown>;
}

const MAX_VERIFIED = 2000;
const MAX_CACHED_TOKEN = 4096;

/**
 * Tokens that verified, so a key sent with every request (the anon key above all) is checked by
 * HMAC once, not per request: a token is reused only with the same project secret and ref, and
 * only until its `exp` (jose's rule: expired when exp ≤ now in whole seconds). Holds what
 * verified, never a failure; the oldest is dropped past MAX_VERIFIED.
 */
export class VerifiedTokens {
  private readonly tokens = new Map<string, { readonly secret: string; readonly ref: string; readonly claims: Record<string, unknown> }>();

  constructor(private readonly now: () => number = Date.now) {}

  find(token: string, secret: string, ref: string): Record<string, unknown> | null {
    const hit = this.tokens.get(token);
    if (hit === undefined || hit.secret !== secret || hit.ref !== ref) return null;
    const exp = hit.claims['exp'];
    if (typeof exp === 'number' && exp <= Math.floor(this.now() / 1000)) {
      this.tokens.delete(token);
      return null;
    }
    return hit.claims;
  }

  keep(token: string, secret: string, ref: string, claims: Record<string, unknown>): void {
    if (token.length > MAX_CACHED_TOKEN) return;
    this.tokens.delete(token);
    this.tokens.set(token, { secret, ref, claims });
    if (this.tokens.size > MAX_VERIFIED) this.tokens.delete(this.tokens.keys().next().value as string);
  }
}

async function verify(token: string, jwtSecret: string, ref: string, verified: VerifiedTokens | null): Promise<RestResult<Record<string, unknown>>> {
  if (token.length > 8192) return jwtError('JWT is too long');
  const known = verified?.find(token, jwtSecret, ref);
  if (known) return { ok: true, value: known };
  try {
    const { payload } = await jwtVerify(token, new TextEncoder().encode(jwtSecret), { algorithms: ['HS256'] });
    // Every project has its own secret; a `ref` claim, when present, must be this project's too.
    if (payload['ref'] !== undefined && payload['ref'] !== ref) return jwtError('JWT is for another project');
    const claims = Object.freeze({ ...payload }) as Record<string, unknown>;
    verified?.keep(token, jwtSecret, ref, claims);
    return { ok: true, value: claims };
  } catch (error) {
    if (error instanceof joseErrors.JWTExpired) return jwtError('JWT expired', 'PGRST303');
    return jwtError('JWT could not be verified', 'PGRST301');
  }
}

/**
 * Who is calling: the `apikey` header must be a key of this project (its anon key, or a user's
 * token, as supabase-js sends either), and `Authorization: Bearer` (or else the apikey) decides the
 * role, which may only be `anon` or `authenticated` — never `service_role`, `postgres`, or any
 * other role a forged claim might name.
 */
export async function authenticate(
  apikey: string | undefined,
  authorization: string | undefined,
  jwtSecret: string,
  ref: string,
  verified: VerifiedTokens | null = null,
): Promise<RestResult<Caller>> {
  if (apikey === undefined || apikey === '') return jwtError('No API key found in request', 'PGRST301');
  const key = await verify(apikey, jwtSecret, ref, verified);
  if (!key.ok) return key;
  let token = apikey;
  if (authorization !== undefined) {
    const m = /^Bearer ([A-Za-z0-9_.-]+)$/i.exec(authorization.trim());
    if (m === null) return jwtError('Authorization must be "Bearer <jwt>"');
    token = m[1] as string;
  }
  const claims = token === apikey ? key : await verify(token, jwtSecret, ref, verified);
  if (!claims.ok) return claims;
  const role = claims.value['role'];
  if (role !== 'anon' && role !== 'authenticated') return jwtError(`The role of the JWT may only be anon or authenticated`, 'PGRST301');
  if (role === 'authenticated' && typeof claims.value['sub'] !== 'string') return jwtError('An authenticated JWT needs a sub');
  return { ok: true, value: { role, claims: claims.value } };
}
