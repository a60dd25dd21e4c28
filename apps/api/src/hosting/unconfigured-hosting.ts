import { type CertificateOutcome, DnsUnavailable, type ReleaseBuild } from '@kiln/domain';
import type { HostingAdapters } from './hosting.module.js';

const NOT_SET_UP = 'Publishing is not set up on this server';

/**
 * The hosting adapters of a server where publishing is not wired in (like
 * UnconfiguredAccessTokenVerifier for sign-in): nothing is built or served, DNS checks answer
 * 503, certificates fail with the reason. main.ts uses it until the real adapters are plugged in.
 */
export function unconfiguredHosting(): HostingAdapters {
  return {
    provider: {
      buildRelease: (): Promise<ReleaseBuild> => Promise.resolve({ kind: 'failed', log: `${NOT_SET_UP}: no hosting provider is configured.` }),
      activate: () => Promise.reject(new Error(`${NOT_SET_UP}: no hosting provider`)),
      deactivate: () => Promise.resolve(),
      discardReleases: () => Promise.resolve(),
    },
    dns: {
      resolveTxt: () => Promise.reject(new DnsUnavailable(NOT_SET_UP)),
      resolveCname: () => Promise.reject(new DnsUnavailable(NOT_SET_UP)),
      resolveAddresses: () => Promise.reject(new DnsUnavailable(NOT_SET_UP)),
    },
    certificates: { requestCertificate: (): Promise<CertificateOutcome> => Promise.resolve({ kind: 'failed', reason: NOT_SET_UP }) },
    screenshotter: { capture: () => Promise.reject(new Error(NOT_SET_UP)) },
  };
}
