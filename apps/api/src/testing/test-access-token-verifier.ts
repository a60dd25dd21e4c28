import {
  type AccessClaims,
  type AccessTokenError,
  type AccessTokenVerifier,
  type Result,
  err,
  invalidAccessToken,
  ok,
  sessionEnded,
} from '@kiln/domain';

/**
 * TEST DOUBLE — bound only by e2e tests, never by the application. Accepts tokens the test
 * mints itself: `test:<userId>:<email>[:<url-encoded full name>]`; `ended:<userId>` stands for a
 * signed-out session; anything else is an invalid (forged) token.
 */
export class TestAccessTokenVerifier implements AccessTokenVerifier {
  verify(token: string): Promise<Result<AccessClaims, AccessTokenError>> {
    const [kind, userId, email, fullName] = token.split(':');
    if (kind === 'ended' && userId) return Promise.resolve(err(sessionEnded()));
    if (kind !== 'test' || !userId || !email) return Promise.resolve(err(invalidAccessToken()));
    return Promise.resolve(
      ok({
        userId,
        email,
        sessionId: `session-${userId}`,
        role: 'authenticated',
        aal: 'aal1',
        expiresAt: new Date(Date.now() + 3_600_000),
        userMetadata: fullName ? { full_name: decodeURIComponent(fullName) } : {},
      }),
    );
  }
}

export const mintTestToken = (userId: string, email: string, fullName?: string): string =>
  ['test', userId, email, ...(fullName ? [encodeURIComponent(fullName)] : [])].join(':');
