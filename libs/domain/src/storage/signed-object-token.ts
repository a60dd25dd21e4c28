import { type Result, err, ok } from '../shared/result.js';
import { type StorageFailure, invalidSignature, invalidRequest } from './storage.errors.js';

/** A signed URL's token is for downloading one object, or for uploading to one path. */
export type SignedPurpose = 'download' | 'upload';

/** The longest a signed URL may live (a week, as Supabase allows). */
export const SIGNED_URL_MAX_SECONDS = 7 * 24 * 3600;
/** A signed upload URL lives two hours (Supabase's). */
export const SIGNED_UPLOAD_SECONDS = 2 * 3600;

/**
 * What a signed token says (its JWT claims): which object, what for, until when, and who signed
 * it (role, sub, email) so that the download or upload runs under the same row-level security.
 */
export interface SignedObjectClaims {
  readonly url: string;
  readonly purpose: SignedPurpose;
  readonly role: 'anon' | 'authenticated';
  readonly sub?: string;
  readonly email?: string;
  readonly upsert?: boolean;
  readonly iat: number;
  readonly exp: number;
}

/** `bucket/path` as a token binds it. */
export const signedUrlOf = (bucket: string, path: string): string => `${bucket}/${path}`;

export function parseExpiresIn(value: unknown): Result<number, StorageFailure> {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > SIGNED_URL_MAX_SECONDS) {
    return err(invalidRequest(`expiresIn must be a whole number of seconds from 1 to ${SIGNED_URL_MAX_SECONDS}`));
  }
  return ok(value);
}

/** Whether verified claims allow this use of this object now (the signature was checked by the adapter). */
export function checkSignedClaims(claims: Record<string, unknown>, bucket: string, path: string, purpose: SignedPurpose, nowSeconds: number): Result<SignedObjectClaims, StorageFailure> {
  if (claims['purpose'] !== purpose) return err(invalidSignature(purpose === 'upload' ? 'The token is not a signed upload token' : 'The token is not a signed download token'));
  if (claims['url'] !== signedUrlOf(bucket, path)) return err(invalidSignature('The token is for another object'));
  const exp = claims['exp'];
  if (typeof exp !== 'number' || exp <= nowSeconds) return err(invalidSignature('The signed URL has expired'));
  const role = claims['role'];
  if (role !== 'anon' && role !== 'authenticated') return err(invalidSignature('The token could not be verified'));
  return ok(claims as unknown as SignedObjectClaims);
}
