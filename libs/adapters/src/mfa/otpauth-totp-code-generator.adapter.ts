import { TOTP_ALGORITHM, TOTP_DIGITS, type TotpCodeGenerator } from '@kiln/domain';
import { HOTP, Secret } from 'otpauth';

/**
 * RFC 6238 codes with the otpauth library: TOTP is HOTP (RFC 4226) over the time step, so the
 * domain picks the steps (window, replay guard) and this computes one step's code.
 */
export class OtpauthTotpCodeGenerator implements TotpCodeGenerator {
  codeAt(secret: string, step: number): string {
    return HOTP.generate({ secret: Secret.fromBase32(secret), algorithm: TOTP_ALGORITHM, digits: TOTP_DIGITS, counter: step });
  }
}
