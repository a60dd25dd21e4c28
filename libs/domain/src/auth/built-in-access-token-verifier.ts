import { type Result, err, ok } from '../shared/result.js';
import {
  type AccessClaims,
  type AccessTokenError,
  type AccessTokenVerifier,
  invalidAccessToken,
  missingAccessToken,
  sessionEnded,
} from './access-token.port.js';
import type { AccessTokenSigner } from './access-token-signer.port.js';
import { isEnded } from './auth-session.js';
import type { SessionStore } from './session-store.port.js';

/** SPEC §5: a token is valid only as three base64url parts. */
export const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/**
 * The built-in auth's AccessTokenVerifier: the signer checks signature, algorithm, audience
 * and expiry; then the token's session must still be live, so a token stops working at logout
 * (or password change, or account deletion) and not only when it expires.
 */
export class BuiltInAccessTokenVerifier implements AccessTokenVerifier {
  constructor(
    private readonly signer: AccessTokenSigner,
    private readonly sessions: SessionStore,
  ) {}

  async verify(token: string): Promise<Result<AccessClaims, AccessTokenError>> {
    if (token.length === 0) return err(missingAccessToken());
    if (!JWT_SHAPE.test(token)) return err(invalidAccessToken());
    const verified = await this.signer.verify(token);
    if (!verified.ok) return verified;
    const claims = verified.value;
    if (typeof claims.session_id !== 'string' || claims.session_id.length === 0) return err(invalidAccessToken('invalid JWT: session_id claim is missing'));
    const session = await this.sessions.findById(claims.session_id);
    if (!session || isEnded(session) || session.userId !== claims.sub) return err(sessionEnded());
    return ok(
      Object.freeze({
        userId: claims.sub,
        email: claims.email === '' ? null : claims.email,
        sessionId: claims.session_id,
        role: claims.role,
        aal: claims.aal,
        expiresAt: new Date(claims.exp * 1000),
        userMetadata: claims.user_metadata,
      }),
    );
  }
}
