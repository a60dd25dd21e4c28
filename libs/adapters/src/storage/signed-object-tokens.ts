import { type Clock, type Result, type SignedPurpose, type StorageFailure, checkSignedClaims, err, invalidSignature, signedUrlOf } from '@kiln/domain';
import { SignJWT, errors as joseErrors, jwtVerify } from 'jose';

/** Who signed: replayed when the URL is used, so row-level security decides as it did for them. */
export interface Signer {
  readonly role: 'anon' | 'authenticated';
  readonly sub?: string;
  readonly email?: string;
}

/**
 * Signed URL tokens: HS256 JWTs with the project's own secret, binding `bucket/path`, a purpose
 * (download or upload) and an expiry. The signer's role and sub sit under `signer`, never as
 * top-level `role`/`sub`: the data API refuses a token without a top-level role, so a signed URL
 * can never be replayed as the signer's access token.
 */
export class SignedObjectTokens {
  constructor(private readonly clock: Clock) {}

  async sign(secret: string, bucket: string, path: string, purpose: SignedPurpose, expiresInSeconds: number, signer: Signer, upsert = false): Promise<string> {
    const iat = Math.floor(this.clock.now().getTime() / 1000);
    return new SignJWT({ url: signedUrlOf(bucket, path), purpose, signer: { role: signer.role, ...(signer.sub ? { sub: signer.sub } : {}), ...(signer.email ? { email: signer.email } : {}) }, ...(upsert ? { upsert: true } : {}) })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuedAt(iat)
      .setExpirationTime(iat + expiresInSeconds)
      .sign(new TextEncoder().encode(secret));
  }

  async verify(secret: string, token: string | null, bucket: string, path: string, purpose: SignedPurpose): Promise<Result<{ signer: Signer; upsert: boolean }, StorageFailure>> {
    if (token === null || token === '') return err(invalidSignature('A token is required (?token=)'));
    if (token.length > 8192) return err(invalidSignature('The token is too long'));
    let payload: Record<string, unknown>;
    try {
      ({ payload } = await jwtVerify(token, new TextEncoder().encode(secret), { algorithms: ['HS256'], currentDate: this.clock.now() }));
    } catch (e) {
      if (e instanceof joseErrors.JWTExpired) return err(invalidSignature('The signed URL has expired'));
      return err(invalidSignature('The token could not be verified (invalid signature)'));
    }
    const signer = payload['signer'];
    if (typeof signer !== 'object' || signer === null) return err(invalidSignature('The token could not be verified'));
    const s = signer as Record<string, unknown>;
    const checked = checkSignedClaims({ ...payload, role: s['role'] }, bucket, path, purpose, Math.floor(this.clock.now().getTime() / 1000));
    if (!checked.ok) return checked;
    if (s['role'] === 'authenticated' && typeof s['sub'] !== 'string') return err(invalidSignature('The token could not be verified'));
    return {
      ok: true,
      value: {
        signer: { role: checked.value.role, ...(typeof s['sub'] === 'string' ? { sub: s['sub'] } : {}), ...(typeof s['email'] === 'string' ? { email: s['email'] } : {}) },
        upsert: payload['upsert'] === true,
      },
    };
  }
}
