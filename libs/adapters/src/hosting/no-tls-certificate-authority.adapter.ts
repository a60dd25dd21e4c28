import type { CertificateAuthority, CertificateOutcome } from '@kiln/domain';

/**
 * Development: Kiln's embedded server serves published sites over plain HTTP, so a custom
 * domain needs no certificate and goes straight on once its DNS is verified.
 */
export class NoTlsCertificateAuthority implements CertificateAuthority {
  async requestCertificate(): Promise<CertificateOutcome> {
    return { kind: 'not-needed' };
  }
}
