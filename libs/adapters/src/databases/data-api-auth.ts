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

async function verify(token: string, secret: Uint8Array, ref: string): Promise<RestResult<Record<string, unknown>>> {
  if (token.length > 8192) return jwtError('JWT is too long');
  try {
    const { payload } = await jwtVerify(token, secret, { algorithms: ['HS256'] });
    // Every project has its own secret; a `ref` claim, when present, must be this project's too.
    if (payload['ref'] !== undefined && payload['ref'] !== ref) return jwtError('JWT is for another project');
    return { ok: true, value: payload as Record<string, unknown> };
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
export async function authenticate(apikey: string | undefined, authorization: string | undefined, jwtSecret: string, ref: string): Promise<RestResult<Caller>> {
  const secret = new TextEncoder().encode(jwtSecret);
  if (apikey === undefined || apikey === '') return jwtError('No API key found in request', 'PGRST301');
  const key = await verify(apikey, secret, ref);
  if (!key.ok) return key;
  let token = apikey;
  if (authorization !== undefined) {
    const m = /^Bearer ([A-Za-z0-9_.-]+)$/i.exec(authorization.trim());
    if (m === null) return jwtError('Authorization must be "Bearer <jwt>"');
    token = m[1] as string;
  }
  const claims = token === apikey ? key : await verify(token, secret, ref);
  if (!claims.ok) return claims;
  const role = claims.value['role'];
  if (role !== 'anon' && role !== 'authenticated') return jwtError(`The role of the JWT may only be anon or authenticated`, 'PGRST301');
  if (role === 'authenticated' && typeof claims.value['sub'] !== 'string') return jwtError('An authenticated JWT needs a sub');
  return { ok: true, value: { role, claims: claims.value } };
}
