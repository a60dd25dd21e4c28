import type { Clock } from '@kiln/domain';
import { SignJWT, errors, jwtVerify } from 'jose';
import type { PreviewUrls } from './preview-url.js';

/** The preview token in `url` (SandboxInfo, SandboxStatus): short, since it travels in a URL. */
export const PREVIEW_TOKEN_AUDIENCE = 'kiln-preview';
export const PREVIEW_TOKEN_TTL_SECONDS = 60 * 60;
/** The cookie the token is exchanged for on the preview origin: a working day, then the builder hands out a new URL. */
export const PREVIEW_SESSION_AUDIENCE = 'kiln-preview-session';
export const PREVIEW_SESSION_TTL_SECONDS = 8 * 60 * 60;
export const PREVIEW_TOKEN_ISSUER = 'kiln';
export const PREVIEW_AUTH_PATH = '/__kiln/auth';

const ALGORITHM = 'HS256';

/**
 * Preview tokens (docs/sandbox-api.md "Live preview"): HS256 JWTs whose subject is the project
 * id. The URL token (audience kiln-preview, 1 h) is exchanged on the preview origin for a
 * session cookie (audience kiln-preview-session, 8 h); neither is accepted as the other, and
 * neither opens another project. Only the project's owner is ever given one (the sandbox
 * routes check ownership before minting).
 */
export class PreviewTokens {
  constructor(
    private readonly secret: Uint8Array,
    private readonly clock: Clock,
    private readonly urls: PreviewUrls,
  ) {}

  /** `<preview origin>/__kiln/auth?token=…&next=%2F`: what the builder's iframe loads first. */
  async authUrl(projectId: string): Promise<string> {
    const token = await this.sign(projectId, PREVIEW_TOKEN_AUDIENCE, PREVIEW_TOKEN_TTL_SECONDS);
    return `${this.urls.originFor(projectId)}${PREVIEW_AUTH_PATH}?token=${encodeURIComponent(token)}&next=%2F`;
  }

  issueSession(projectId: string): Promise<string> {
    return this.sign(projectId, PREVIEW_SESSION_AUDIENCE, PREVIEW_SESSION_TTL_SECONDS);
  }

  /** Whether `token` is a valid URL token for exactly this project. */
  verifyToken(token: string, projectId: string): Promise<boolean> {
    return this.verify(token, projectId, PREVIEW_TOKEN_AUDIENCE);
  }

  /** Whether `token` is a valid session (cookie) for exactly this project. */
  verifySession(token: string, projectId: string): Promise<boolean> {
    return this.verify(token, projectId, PREVIEW_SESSION_AUDIENCE);
  }

  private async sign(projectId: string, audience: string, ttlSeconds: number): Promise<string> {
    const now = Math.floor(this.clock.now().getTime() / 1000);
    return new SignJWT({})
      .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
      .setIssuer(PREVIEW_TOKEN_ISSUER)
      .setAudience(audience)
      .setSubject(projectId.toLowerCase())
      .setIssuedAt(now)
      .setExpirationTime(now + ttlSeconds)
      .sign(this.secret);
  }

  private async verify(token: string, projectId: string, audience: string): Promise<boolean> {
    if (token.length === 0 || token.length > 2048) return false;
    try {
      const { payload } = await jwtVerify(token, this.secret, {
        algorithms: [ALGORITHM],
        issuer: PREVIEW_TOKEN_ISSUER,
        audience,
        subject: projectId.toLowerCase(),
        currentDate: this.clock.now(),
        requiredClaims: ['exp', 'iat', 'sub'],
      });
      return payload.sub === projectId.toLowerCase();
    } catch (error) {
      if (error instanceof errors.JOSEError) return false;
      throw error;
    }
  }
}
