/** What asking for a host's certificate gave. */
export type CertificateOutcome =
  | { readonly kind: 'issued' }
  /** The edge serves this host without TLS (the embedded development server): nothing to issue. */
  | { readonly kind: 'not-needed' }
  | { readonly kind: 'failed'; readonly reason: string };

/**
 * Gets a TLS certificate for a verified custom domain (the TLS edge: Caddy's on-demand TLS
 * through ACME in production; nothing in development). The edge only ever issues for hosts that
 * Kiln's ask endpoint allows (GET /api/hosting/tls-allowed).
 */
export interface CertificateAuthority {
  requestCertificate(host: string): Promise<CertificateOutcome>;
}
