import { createMfaUseCases } from '../../mfa/mfa-use-cases.js';
import { timeStep } from '../../mfa/totp.js';
import { type AuthTestKit, type AuthTestKitOptions, createAuthTestKit } from '../auth/auth-test-kit.js';
import { FakeQrCodeRenderer, FakeTotpCodeGenerator } from './fake-totp.js';
import { InMemoryFactorStore } from './in-memory-factor-store.js';

/** The built-in auth plus second factors over in-memory adapters. */
export function createMfaTestKit(options: AuthTestKitOptions = {}) {
  const kit: AuthTestKit = createAuthTestKit(options);
  const factors = new InMemoryFactorStore(options.pause);
  const totp = new FakeTotpCodeGenerator();
  const qr = new FakeQrCodeRenderer();
  const mfa = createMfaUseCases({ ...kit.ports, factors, totp, qr });
  /** The code an authenticator app with `secret` shows now (or `steps` steps later). */
  const codeNow = (secret: string, steps = 0): string => totp.codeAt(secret, timeStep(kit.clock.now()) + steps);
  return { ...kit, factors, totp, qr, mfa, codeNow };
}

export type MfaTestKit = ReturnType<typeof createMfaTestKit>;
