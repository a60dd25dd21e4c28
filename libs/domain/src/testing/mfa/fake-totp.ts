import type { QrCodeRenderer } from '../../mfa/qr-code-renderer.port.js';
import type { TotpCodeGenerator } from '../../mfa/totp.js';

/**
 * A stand-in for RFC 6238 in domain tests (the domain has no HMAC): a deterministic six-digit
 * code per (secret, step), different for neighbouring steps. The real algorithm is the otpauth
 * adapter's, checked against the RFC's test vectors.
 */
export class FakeTotpCodeGenerator implements TotpCodeGenerator {
  codeAt(secret: string, step: number): string {
    let h = 2166136261;
    for (const ch of `${secret}:${step}`) h = Math.imul(h ^ ch.charCodeAt(0), 16777619) >>> 0;
    return String(h % 1_000_000).padStart(6, '0');
  }
}

/** Records what it was asked to draw; the "SVG" names the text. */
export class FakeQrCodeRenderer implements QrCodeRenderer {
  readonly drawn: string[] = [];

  async svg(text: string): Promise<string> {
    this.drawn.push(text);
    return `<svg data-text="${text.length}"></svg>`;
  }
}
