import type { AuthPorts } from '../auth/auth-use-cases.js';
import { type AuthSettings, authSettings } from '../auth/auth-settings.js';
import { SessionIssuer } from '../auth/session-issuer.js';
import { ChallengeFactor } from './challenge-factor.use-case.js';
import { CheckCredentialChange } from './check-credential-change.use-case.js';
import { EnrollFactor } from './enroll-factor.use-case.js';
import type { FactorStore } from './factor-store.port.js';
import { ListFactors } from './list-factors.use-case.js';
import type { QrCodeRenderer } from './qr-code-renderer.port.js';
import type { TotpCodeGenerator } from './totp.js';
import { UnenrollFactor } from './unenroll-factor.use-case.js';
import { VerifyFactor } from './verify-factor.use-case.js';

/** The auth's ports plus what second factors need. */
export interface MfaPorts extends Pick<AuthPorts, 'users' | 'sessions' | 'hasher' | 'signer' | 'clock' | 'random' | 'ids'> {
  readonly factors: FactorStore;
  readonly totp: TotpCodeGenerator;
  readonly qr: QrCodeRenderer;
}

/** The second-factor use cases (/auth/v1/factors), wired once by the API's AuthModule and by tests. */
export function createMfaUseCases(ports: MfaPorts, settings: AuthSettings = authSettings()) {
  const { factors, users, sessions, hasher, signer, clock, random, ids, totp, qr } = ports;
  const issuer = new SessionIssuer({ sessions, signer, hasher, random, ids, clock, issuer: settings.issuer });
  return {
    enroll: new EnrollFactor(factors, users, qr, random, ids, clock),
    challenge: new ChallengeFactor(factors, ids, clock),
    verify: new VerifyFactor(factors, users, sessions, issuer, totp, clock),
    unenroll: new UnenrollFactor(factors),
    list: new ListFactors(factors),
    checkCredentialChange: new CheckCredentialChange(factors, sessions),
  };
}

export type MfaUseCases = ReturnType<typeof createMfaUseCases>;
