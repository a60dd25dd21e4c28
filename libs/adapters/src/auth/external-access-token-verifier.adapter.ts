import {
  type JWTPayload,
  type JWTVerifyGetKey,
  createRemoteJWKSet,
  decodeProtectedHeader,
  errors,
  jwtVerify,
} from 'jose';
import {
  AUTH_AUDIENCE,
  type AccessClaims,
  type AccessTokenError,
  type AccessTokenVerifier,
  type Clock,
  JWT_SHAPE,
  type Result,
  err,
  invalidAccessToken,
  missingAccessToken,
  ok,
} from '@kiln/domain';

/** Algorithms a Supabase project signs with: its asymmetric signing keys, or the legacy shared secret. */
export const EXTERNAL_ASYMMETRIC_ALGORITHMS = ['ES256', 'RS256'] as const;
export const EXTERNAL_SECRET_ALGORITHM = 'HS256';
/** SPEC §9: the JWKS is cached 10 minutes. */
export const JWKS_CACHE_MS = 10 * 60_000;

export interface ExternalAccessTokenVerifierOptions {
  readonly clock: Clock;
  /** `https://<project>.supabase.co/auth/v1/.well-known/jwks.json` */
  readonly jwksUrl?: string | null;
  /** The project's legacy JWT secret (HS256). */
  readonly jwtSecret?: string | null;
  /** When set, the `iss` tokens must carry. */
  readonly issuer?: string | null;
  readonly audience?: string;
  /** Milliseconds to wait for the JWKS. */
  readonly timeoutMs?: number;
}

const INVALID = 'invalid JWT: unable to parse or verify signature';

/**
 * Verifies access tokens of a real Supabase project, for running the API against it instead
 * of the built-in auth: ES256/RS256 against the project's JWKS (fetched and cached by jose), or
 * HS256 with its JWT secret; audience `authenticated`; expiry by the injected clock. It cannot
 * know whether the session has since ended — those tokens live until they expire (1 h).
 */
export class ExternalAccessTokenVerifier implements AccessTokenVerifier {
  private readonly jwks: JWTVerifyGetKey | null;
  private readonly secret: Uint8Array | null;

  constructor(private readonly options: ExternalAccessTokenVerifierOptions) {
    if (!options.jwksUrl && !options.jwtSecret) throw new Error('ExternalAccessTokenVerifier needs a JWKS URL or a JWT secret');
    this.jwks = options.jwksUrl
      ? createRemoteJWKSet(new URL(options.jwksUrl), { cacheMaxAge: JWKS_CACHE_MS, timeoutDuration: options.timeoutMs ?? 5_000 })
      : null;
    this.secret = options.jwtSecret ? new TextEncoder().encode(options.jwtSecret) : null;
  }

  async verify(token: string): Promise<Result<AccessClaims, AccessTokenError>> {
    if (token.length === 0) return err(missingAccessToken());
    if (!JWT_SHAPE.test(token)) return err(invalidAccessToken());
    let alg: string | undefined;
    try {
      alg = decodeProtectedHeader(token).alg;
    } catch {
      return err(invalidAccessToken());
    }
    const common = {
      audience: this.options.audience ?? AUTH_AUDIENCE,
      currentDate: this.options.clock.now(),
      requiredClaims: ['sub', 'exp'],
      ...(this.options.issuer ? { issuer: this.options.issuer } : {}),
    };
    try {
      let payload: JWTPayload;
      if (alg === EXTERNAL_SECRET_ALGORITHM && this.secret) {
        ({ payload } = await jwtVerify(token, this.secret, { ...common, algorithms: [EXTERNAL_SECRET_ALGORITHM] }));
      } else if ((EXTERNAL_ASYMMETRIC_ALGORITHMS as readonly string[]).includes(alg ?? '') && this.jwks) {
        ({ payload } = await jwtVerify(token, this.jwks, { ...common, algorithms: [...EXTERNAL_ASYMMETRIC_ALGORITHMS] }));
      } else {
        return err(invalidAccessToken(`${INVALID}: algorithm ${String(alg)} is not accepted`));
      }
      const claims = toAccessClaims(payload);
      return claims ? ok(claims) : err(invalidAccessToken(`${INVALID}, token has invalid claims`));
    } catch (error) {
      if (error instanceof errors.JWTExpired) return err(invalidAccessToken(`${INVALID}, token has invalid claims: token is expired`));
      // The JWKS could not be fetched: an outage, not a bad token — let it surface as a 5xx.
      if (error instanceof errors.JWKSTimeout || error instanceof errors.JWKSInvalid) throw error;
      if (error instanceof errors.JOSEError) return err(invalidAccessToken(INVALID));
      throw error;
    }
  }
}

function toAccessClaims(payload: JWTPayload): AccessClaims | null {
  const p = payload as Record<string, unknown>;
  if (typeof p['sub'] !== 'string' || p['sub'] === '' || typeof p['exp'] !== 'number') return null;
  const metadata = p['user_metadata'];
  return Object.freeze({
    userId: p['sub'],
    email: typeof p['email'] === 'string' && p['email'] !== '' ? p['email'] : null,
    sessionId: typeof p['session_id'] === 'string' ? p['session_id'] : null,
    role: typeof p['role'] === 'string' ? p['role'] : AUTH_AUDIENCE,
    aal: p['aal'] === 'aal2' ? 'aal2' : 'aal1',
    expiresAt: new Date(p['exp'] * 1000),
    userMetadata: typeof metadata === 'object' && metadata !== null && !Array.isArray(metadata) ? (metadata as Record<string, unknown>) : {},
  });
}
