import {
  type CryptoKey,
  type JWK,
  type JWTPayload,
  SignJWT,
  calculateJwkThumbprint,
  errors,
  exportJWK,
  generateKeyPair,
  importJWK,
  importPKCS8,
  jwtVerify,
} from 'jose';
import {
  AUTH_AUDIENCE,
  type AccessTokenClaims,
  type AccessTokenSigner,
  type Clock,
  type InvalidAccessToken,
  type JsonWebKeySet,
  type Result,
  err,
  invalidAccessToken,
  ok,
} from '@kiln/domain';
import { readOrCreateSecretFile } from '../system/secret-file.js';

/** The only algorithm Kiln signs with and accepts for its own tokens (ECDSA P-256 + SHA-256). */
export const KILN_JWT_ALGORITHM = 'ES256';

export interface JoseAccessTokenSignerOptions {
  readonly clock: Clock;
  /** The `iss` written into tokens and required of them. */
  readonly issuer: string;
  /** A configured key (AUTH_JWT_PRIVATE_KEY): an EC P-256 private key as PKCS#8 PEM or as a JWK with `d`. */
  readonly privateKey?: string | null;
  /** Where a generated key is kept when none is configured (`${DATA_DIR}/auth/jwt-key.json`). */
  readonly keyFile?: string | null;
  readonly audience?: string;
}

interface SigningKey {
  readonly privateKey: CryptoKey;
  readonly publicKey: CryptoKey;
  readonly publicJwk: JWK;
  readonly kid: string;
}

const INVALID = 'invalid JWT: unable to parse or verify signature';

/**
 * Kiln's access tokens as ES256 JWTs (jose). Verification accepts only ES256 with our key id,
 * our issuer and the `authenticated` audience, and checks expiry against the injected clock.
 */
export class JoseAccessTokenSigner implements AccessTokenSigner {
  private constructor(
    private readonly key: SigningKey,
    private readonly clock: Clock,
    private readonly issuer: string,
    private readonly audience: string,
  ) {}

  /**
   * Loads the configured key; else the key in `keyFile`; else makes one (and stores it in
   * `keyFile`, mode 0600, when given). Throws a readable Error for a key it cannot use.
   */
  static async create(options: JoseAccessTokenSignerOptions): Promise<JoseAccessTokenSigner> {
    const key = options.privateKey
      ? await keyFromText(options.privateKey, 'AUTH_JWT_PRIVATE_KEY')
      : options.keyFile
        ? await loadOrCreateKeyFile(options.keyFile)
        : await keyFromJwk(await generatedJwk(), 'generated key');
    return new JoseAccessTokenSigner(key, options.clock, options.issuer, options.audience ?? AUTH_AUDIENCE);
  }

  get keyId(): string {
    return this.key.kid;
  }

  sign(claims: AccessTokenClaims): Promise<string> {
    return new SignJWT({ ...claims } as unknown as JWTPayload)
      .setProtectedHeader({ alg: KILN_JWT_ALGORITHM, kid: this.key.kid, typ: 'JWT' })
      .sign(this.key.privateKey);
  }

  async verify(token: string): Promise<Result<AccessTokenClaims, InvalidAccessToken>> {
    try {
      const { payload } = await jwtVerify(
        token,
        (header) => {
          if (header.kid !== undefined && header.kid !== this.key.kid) throw new errors.JWKSNoMatchingKey();
          return this.key.publicKey;
        },
        {
          algorithms: [KILN_JWT_ALGORITHM],
          audience: this.audience,
          issuer: this.issuer,
          currentDate: this.clock.now(),
          requiredClaims: ['sub', 'exp', 'iat', 'session_id'],
        },
      );
      const claims = readClaims(payload);
      return claims ? ok(claims) : err(invalidAccessToken(`${INVALID}, token has invalid claims`));
    } catch (error) {
      if (error instanceof errors.JWTExpired) return err(invalidAccessToken(`${INVALID}, token has invalid claims: token is expired`));
      if (error instanceof errors.JOSEError || error instanceof TypeError) return err(invalidAccessToken(INVALID));
      throw error;
    }
  }

  publicKeys(): Promise<JsonWebKeySet> {
    return Promise.resolve({ keys: [{ ...this.key.publicJwk }] });
  }
}

/** Checks the claim types GoTrue's tokens have; null if any is off. */
export function readClaims(payload: JWTPayload): AccessTokenClaims | null {
  const p = payload as Record<string, unknown>;
  const str = (k: string) => typeof p[k] === 'string';
  const num = (k: string) => typeof p[k] === 'number' && Number.isFinite(p[k]);
  const obj = (k: string) => typeof p[k] === 'object' && p[k] !== null && !Array.isArray(p[k]);
  if (!str('iss') || !str('sub') || !str('aud') || !num('exp') || !num('iat') || !str('session_id') || !str('role')) return null;
  if (!obj('app_metadata') || !obj('user_metadata') || !Array.isArray(p['amr'])) return null;
  if (p['aal'] !== 'aal1' && p['aal'] !== 'aal2') return null;
  return {
    iss: p['iss'] as string,
    sub: p['sub'] as string,
    aud: p['aud'] as string,
    exp: p['exp'] as number,
    iat: p['iat'] as number,
    email: typeof p['email'] === 'string' ? p['email'] : '',
    phone: typeof p['phone'] === 'string' ? p['phone'] : '',
    app_metadata: p['app_metadata'] as Record<string, unknown>,
    user_metadata: p['user_metadata'] as Record<string, unknown>,
    role: p['role'] as string,
    aal: p['aal'],
    amr: p['amr'] as AccessTokenClaims['amr'],
    session_id: p['session_id'] as string,
    is_anonymous: p['is_anonymous'] === true,
  };
}

async function keyFromText(text: string, source: string): Promise<SigningKey> {
  const trimmed = text.trim();
  if (trimmed.startsWith('-----BEGIN')) {
    let privateKey: CryptoKey;
    try {
      privateKey = await importPKCS8(trimmed.replace(/\\n/g, '\n'), KILN_JWT_ALGORITHM, { extractable: true });
    } catch (error) {
      throw new Error(`${source} must be an EC P-256 private key in PKCS#8 PEM ("-----BEGIN PRIVATE KEY-----"): ${messageOf(error)}`);
    }
    return keyFromJwk(await exportJWK(privateKey), source);
  }
  if (trimmed.startsWith('{')) {
    let jwk: JWK;
    try {
      jwk = JSON.parse(trimmed) as JWK;
    } catch (error) {
      throw new Error(`${source} is not valid JSON: ${messageOf(error)}`);
    }
    return keyFromJwk(jwk, source);
  }
  throw new Error(`${source} must be a PKCS#8 PEM or a JWK (JSON) EC P-256 private key`);
}

async function keyFromJwk(jwk: JWK, source: string): Promise<SigningKey> {
  if (jwk.kty !== 'EC' || jwk.crv !== 'P-256' || typeof jwk.d !== 'string' || typeof jwk.x !== 'string' || typeof jwk.y !== 'string') {
    throw new Error(`${source} must be an EC P-256 private key (kty "EC", crv "P-256", with "d"); Kiln signs with ES256 only`);
  }
  const { kty, crv, x, y } = jwk;
  const kid = typeof jwk.kid === 'string' && jwk.kid !== '' ? jwk.kid : await calculateJwkThumbprint({ kty, crv, x, y });
  const publicJwk: JWK = { kty, crv, x, y, kid, alg: KILN_JWT_ALGORITHM, use: 'sig', key_ops: ['verify'] };
  const privateKey = (await importJWK({ kty, crv, x, y, d: jwk.d }, KILN_JWT_ALGORITHM)) as CryptoKey;
  const publicKey = (await importJWK({ kty, crv, x, y }, KILN_JWT_ALGORITHM)) as CryptoKey;
  return { privateKey, publicKey, publicJwk, kid };
}

async function generatedJwk(): Promise<JWK> {
  const { privateKey } = await generateKeyPair(KILN_JWT_ALGORITHM, { extractable: true });
  const jwk = await exportJWK(privateKey);
  const { kty, crv, x, y } = jwk;
  return { ...jwk, kid: await calculateJwkThumbprint({ kty: kty ?? 'EC', crv, x, y }), alg: KILN_JWT_ALGORITHM, use: 'sig' };
}

/**
 * Reads the key file, or creates it (readOrCreateSecretFile: two API processes starting together
 * agree on one key, and nobody reads a half-written file).
 */
function loadOrCreateKeyFile(file: string): Promise<SigningKey> {
  return readOrCreateSecretFile(file, async () => `${JSON.stringify(await generatedJwk(), null, 2)}\n`, (text) => keyFromText(text, file));
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
