import { anonKeyClaims } from '@kiln/domain';
import { SignJWT } from 'jose';

/**
 * The project's anon key: HS256 over docs/databases.md's claims with the project's own secret,
 * no expiry and no iat, so the same project always gets the same key (provision is idempotent).
 */
export async function signAnonKey(ref: string, jwtSecret: string): Promise<string> {
  return new SignJWT({ ...anonKeyClaims(ref) }).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(new TextEncoder().encode(jwtSecret));
}
