import { isIP } from 'node:net';
import { checkServerIdentity, connect, type PeerCertificate, rootCertificates } from 'node:tls';
import type { CertificateAuthority, CertificateOutcome } from '@kiln/domain';
import { SERVABLE_HOST_PATTERN } from './caddy-edge.js';

export interface CaddyCertificateAuthorityOptions {
  /** Caddy's HTTPS listener as Kiln reaches it (CADDY_TLS_ADDRESS host, default 127.0.0.1; CADDY_HTTPS_PORT). */
  readonly edgeHost?: string;
  readonly edgePort: number;
  /** PEM roots an issued certificate must chain to (ACME_ISSUER_ROOT_FILE); default: Node's public roots (Let's Encrypt's among them). */
  readonly trustedRoots?: string | readonly string[];
  /** How long one issuance may take: Caddy holds the handshake while ACME runs (default 45 s). */
  readonly timeoutMs?: number;
}

const servable = new RegExp(SERVABLE_HOST_PATTERN);

/**
 * Gets a certificate from Caddy's on-demand TLS: a TLS handshake to Caddy with SNI = the host
 * makes Caddy ask Kiln's ask endpoint and, if allowed, obtain a certificate through ACME while
 * the handshake waits. The answer is "issued" only when the certificate Caddy then presents
 * covers the host and chains to a trusted root; anything else is "failed" with words safe to
 * show the person (no addresses, no stack).
 */
export class CaddyCertificateAuthority implements CertificateAuthority {
  private readonly roots: string[];

  constructor(private readonly options: CaddyCertificateAuthorityOptions) {
    this.roots = options.trustedRoots === undefined ? [...rootCertificates] : [options.trustedRoots].flat();
  }

  requestCertificate(host: string): Promise<CertificateOutcome> {
    const name = host.toLowerCase();
    if (!servable.test(name) || isIP(name) !== 0 || name.length > 253) {
      return Promise.resolve(failed('This is not a host name a certificate can be issued for.'));
    }
    const timeoutMs = this.options.timeoutMs ?? 45_000;
    return new Promise<CertificateOutcome>((resolve) => {
      let settled = false;
      const socket = connect({
        host: this.options.edgeHost ?? '127.0.0.1',
        port: this.options.edgePort,
        servername: name,
        ca: this.roots,
        ALPNProtocols: ['http/1.1'],
        // Checked below, to tell "not trusted" from "wrong host" in the answer.
        rejectUnauthorized: false,
      });
      const finish = (outcome: CertificateOutcome) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        socket.destroy();
        resolve(outcome);
      };
      const timer = setTimeout(() => finish(failed('The TLS edge did not finish getting a certificate in time.')), timeoutMs);
      socket.once('secureConnect', () => finish(judge(name, socket.getPeerCertificate(), socket.authorized, socket.authorizationError)));
      socket.once('error', (error: NodeJS.ErrnoException) => finish(failed(handshakeFailure(error))));
      socket.once('close', () => finish(failed('The TLS edge closed the connection without a certificate.')));
    });
  }
}

function judge(host: string, certificate: PeerCertificate, authorized: boolean, authorizationError: Error | null): CertificateOutcome {
  if (!certificate || Object.keys(certificate).length === 0) return failed('The TLS edge presented no certificate.');
  // Node folds a name mismatch into `authorized`: look at the name first to say which is wrong.
  if (checkServerIdentity(host, certificate) !== undefined) return failed(`The certificate presented does not cover ${host}.`);
  if (!authorized) {
    const code = String((authorizationError as NodeJS.ErrnoException | null)?.code ?? authorizationError ?? 'unknown');
    return failed(`The certificate presented for ${host} is not trusted (${/^[A-Z_]+$/.test(code) ? code : 'untrusted chain'}).`);
  }
  return { kind: 'issued' };
}

function handshakeFailure(error: NodeJS.ErrnoException): string {
  if (error.code === 'ECONNREFUSED' || error.code === 'EHOSTUNREACH' || error.code === 'ENOTFOUND') return 'The TLS edge is not reachable.';
  // Caddy ends the handshake with an alert when Kiln's ask endpoint refuses the host or ACME fails.
  return 'The TLS edge could not get a certificate for this host (the handshake was refused).';
}

const failed = (reason: string): CertificateOutcome => ({ kind: 'failed', reason });
