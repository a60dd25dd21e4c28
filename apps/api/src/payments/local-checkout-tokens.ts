import type { Clock } from '@kiln/domain';
import { SignJWT, errors, jwtVerify } from 'jose';

/** Where a local checkout link leads: one checkout session of one user, or one customer's portal. */
export type LocalCheckoutTarget =
  | { readonly kind: 'checkout'; readonly sessionId: string; readonly userId: string }
  | { readonly kind: 'portal'; readonly customerId: string };

/** A link is good for an hour (the page, then its Pay / Cancel buttons); the app hands out a new one on the next click. */
export const LOCAL_CHECKOUT_TOKEN_TTL_SECONDS = 60 * 60;
/** The query parameter of the links and the form field of the pages' buttons. */
export const LOCAL_CHECKOUT_TOKEN_FIELD = 'token';

const ALGORITHM = 'HS256';
const ISSUER = 'kiln';
const AUDIENCE: Readonly<Record<LocalCheckoutTarget['kind'], string>> = { checkout: 'kiln-local-checkout', portal: 'kiln-local-portal' };

/**
 * The proof that a request to the local test checkout comes from the owner of the session or
 * customer. Its pages are reached by a browser redirect, without the bearer token, so the link
 * the API hands the signed-in owner carries a capability instead: an HS256 JWT (per-process
 * key, one hour) naming the session and its user, or the customer. The page puts it in its
 * forms, so Pay and Cancel need it too. A token for another session, user or customer, or for
 * the other kind of page, is refused.
 */
export class LocalCheckoutTokens {
  constructor(
    private readonly secret: Uint8Array,
    private readonly clock: Clock,
  ) {}

  async sign(target: LocalCheckoutTarget): Promise<string> {
    const now = Math.floor(this.clock.now().getTime() / 1000);
    return new SignJWT(target.kind === 'checkout' ? { uid: target.userId } : {})
      .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE[target.kind])
      .setSubject(subjectOf(target))
      .setIssuedAt(now)
      .setExpirationTime(now + LOCAL_CHECKOUT_TOKEN_TTL_SECONDS)
      .sign(this.secret);
  }

  /** Whether `token` (any value from a query or a form) opens exactly `target`. */
  async verify(token: unknown, target: LocalCheckoutTarget): Promise<boolean> {
    if (typeof token !== 'string' || token.length === 0 || token.length > 2048) return false;
    try {
      const { payload } = await jwtVerify(token, this.secret, {
        algorithms: [ALGORITHM],
        issuer: ISSUER,
        audience: AUDIENCE[target.kind],
        subject: subjectOf(target),
        currentDate: this.clock.now(),
        requiredClaims: ['exp', 'iat', 'sub'],
      });
      return target.kind === 'portal' || payload['uid'] === target.userId;
    } catch (error) {
      if (error instanceof errors.JOSEError) return false;
      throw error;
    }
  }

  /** `url` with its token: `…/local-checkout/<id>?token=…`. */
  async link(url: string, target: LocalCheckoutTarget): Promise<string> {
    const signed = new URL(url);
    signed.searchParams.set(LOCAL_CHECKOUT_TOKEN_FIELD, await this.sign(target));
    return signed.toString();
  }
}

function subjectOf(target: LocalCheckoutTarget): string {
  return target.kind === 'checkout' ? target.sessionId : target.customerId;
}
