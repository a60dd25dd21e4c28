import { type AccessClaims, type AccessTokenError, type AccessTokenVerifier, type Result, err, invalidAccessToken } from '@kiln/domain';

/**
 * The verifier used when no auth module is wired in: it accepts no token, so every protected
 * route answers 401 rather than trusting anything. Replaced by the auth module's binding.
 */
export class UnconfiguredAccessTokenVerifier implements AccessTokenVerifier {
  verify(_token: string): Promise<Result<AccessClaims, AccessTokenError>> {
    return Promise.resolve(err(invalidAccessToken('Sign-in is not configured on this server')));
  }
}
