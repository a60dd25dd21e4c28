import type { OwnedProjects } from '../../projects/owned-projects.js';
import type { Clock } from '../../shared/clock.port.js';
import type { DomainError } from '../../shared/domain-error.js';
import { type Result, err, ok } from '../../shared/result.js';
import type { CertificateAuthority } from '../certificate-authority.port.js';
import { CHALLENGE_LABEL, type CustomDomain } from '../custom-domain.entity.js';
import { markActive, markCertificateIssued, markDnsMissing, markFailed, markVerified } from '../custom-domain-lifecycle.js';
import { isApex, parseDomainName } from '../domain-name.js';
import { DnsUnavailable, type DnsResolver } from '../dns-resolver.port.js';
import type { HostingProvider } from '../hosting-provider.port.js';
import type { HostingRepository } from '../hosting-repository.port.js';
import type { DomainNotFound } from '../hosting.errors.js';
import type { PublishedUrls } from '../published-urls.js';
import { type DomainStatus, domainStatusOf } from './get-publish-status.use-case.js';
import { domainNotFound } from './remove-custom-domain.use-case.js';
import { serveRelease } from './site-hosts.js';

/** No DNS server answered: nothing was decided, try again (503). */
export type DnsLookupUnavailable = DomainError<'HOSTING.DNS_UNAVAILABLE'>;

export interface DomainVerification {
  readonly verified: boolean;
  readonly txtFound: boolean;
  readonly targetFound: boolean;
  readonly domain: DomainStatus;
}

const sameSet = (actual: readonly string[], allowed: readonly string[]): boolean => actual.length > 0 && actual.every((a) => allowed.includes(a.toLowerCase()));

/**
 * Checks a custom domain's DNS through the resolver: the TXT `_kiln-challenge.<host>` must hold
 * the token, and the host must point at Kiln — a CNAME to the target, or (an apex, or a provider
 * that flattens CNAMEs) A/AAAA records that are all Kiln's addresses (a stray address would send
 * part of the visitors elsewhere). Then the certificate is asked for; issued (or not needed)
 * makes the domain active, and a live site starts answering on it. Any failure is kept on the
 * domain with a reason; a failed domain may be verified again.
 */
export class VerifyCustomDomain {
  constructor(
    private readonly owned: OwnedProjects,
    private readonly hosting: HostingRepository,
    private readonly dns: DnsResolver,
    private readonly certificates: CertificateAuthority,
    private readonly provider: HostingProvider,
    private readonly urls: PublishedUrls,
    private readonly clock: Clock,
  ) {}

  async execute(input: { userId: string; domainName: string }): Promise<Result<DomainVerification, DomainNotFound | DnsLookupUnavailable>> {
    const host = parseDomainName(input.domainName);
    const domain = host.ok ? await this.hosting.findDomainByHost(host.value) : null;
    const notFound = err(domainNotFound(host.ok ? host.value : input.domainName.slice(0, 253)));
    // Someone else's domain answers like a missing one.
    if (!domain || !(await this.owned.find(input.userId, domain.projectId)).ok) return notFound;

    let txtFound: boolean;
    let targetFound: boolean;
    try {
      txtFound = (await this.dns.resolveTxt(`${CHALLENGE_LABEL}.${domain.host}`)).some((value) => value.trim() === domain.verificationToken);
      targetFound = await this.pointsAtKiln(domain.host);
    } catch (error) {
      if (error instanceof DnsUnavailable || (error as { code?: unknown }).code === 'HOSTING.DNS_UNAVAILABLE') {
        return err({ code: 'HOSTING.DNS_UNAVAILABLE', message: 'DNS could not be checked right now. Please try again in a minute.' });
      }
      throw error;
    }
    if (domain.status === 'active') return ok({ verified: txtFound && targetFound, txtFound, targetFound, domain: domainStatusOf(domain, this.urls) });
    if (!txtFound || !targetFound) {
      const waiting = markDnsMissing(domain, this.dnsReason(domain, txtFound), this.clock.now());
      await this.hosting.saveDomain(waiting);
      return ok({ verified: false, txtFound, targetFound, domain: domainStatusOf(waiting, this.urls) });
    }
    // A domain left verified or certificate_issued (a step interrupted before) carries on from there.
    const verified = domain.status === 'pending' || domain.status === 'failed' ? markVerified(domain, this.clock.now()) : domain;
    const certified = await this.certify(verified);
    return ok({ verified: certified.status === 'active', txtFound, targetFound, domain: domainStatusOf(certified, this.urls) });
  }

  private async pointsAtKiln(host: string): Promise<boolean> {
    const { cname, addresses } = this.urls.target;
    if (!isApex(host)) {
      const cnames = await this.dns.resolveCname(host);
      if (cnames.some((c) => c.toLowerCase().replace(/\.$/, '') === cname)) return true;
      if (cnames.length > 0) return false;
    }
    return sameSet(await this.dns.resolveAddresses(host), addresses);
  }

  private dnsReason(domain: CustomDomain, txtFound: boolean): string {
    if (!txtFound) return `The TXT record ${CHALLENGE_LABEL}.${domain.host} with the verification token was not found.`;
    return isApex(domain.host)
      ? `${domain.host} does not point only at ${this.urls.target.addresses.join(', ')} (A/AAAA records).`
      : `${domain.host} does not point at ${this.urls.target.cname} (CNAME record).`;
  }

  /** Verified → the certificate → active (and served when the site is live), or failed with the reason. */
  private async certify(verified: CustomDomain): Promise<CustomDomain> {
    let issued = verified;
    if (verified.status === 'verified') {
      // Saved first: the TLS edge asks Kiln (tls-allowed) before it requests the certificate.
      await this.hosting.saveDomain(verified);
      const outcome = await this.certificates.requestCertificate(verified.host);
      if (outcome.kind === 'failed') {
        const failed = markFailed(verified, `The certificate could not be issued: ${outcome.reason}`, this.clock.now());
        await this.hosting.saveDomain(failed);
        return failed;
      }
      issued = markCertificateIssued(verified, this.clock.now());
    }
    const active = markActive(issued, this.clock.now());
    await this.hosting.saveDomain(active);
    const site = await this.hosting.findSite(active.projectId);
    if (site && site.status === 'live' && site.currentReleaseId !== null) {
      await serveRelease({ hosting: this.hosting, provider: this.provider, urls: this.urls }, site, site.currentReleaseId);
    }
    return active;
  }
}
