import type { OwnedProjects } from '../../projects/owned-projects.js';
import type { ProjectNotFound } from '../../projects/project.errors.js';
import type { Clock } from '../../shared/clock.port.js';
import type { IdGenerator } from '../../shared/ids.port.js';
import type { DomainError } from '../../shared/domain-error.js';
import type { RandomSource } from '../../shared/random.port.js';
import { type Result, err, ok } from '../../shared/result.js';
import type { CheckPublishAllowed } from '../check-publish-allowed.use-case.js';
import type { CustomDomain } from '../custom-domain.entity.js';
import { newCustomDomain, verificationToken } from '../custom-domain-lifecycle.js';
import { parseCustomDomain } from '../domain-name.js';
import type { HostingRepository } from '../hosting-repository.port.js';
import type { DomainTaken, InvalidDomain } from '../hosting.errors.js';
import type { PublishedUrls } from '../published-urls.js';
import type { PublishError } from '../publishing.errors.js';
import { type DomainStatus, domainStatusOf } from './get-publish-status.use-case.js';
import { rejectedWith } from './site-hosts.js';

/** An unverified claim on a host (pending or failed) lapses after this long, when another project adds the host. */
export const STALE_CLAIM_MS = 7 * 24 * 60 * 60 * 1000;

/** Custom domains one project may have: enough for apex + www and a few more, bounded so one project cannot fill the edge's routes. */
export const MAX_DOMAINS_PER_PROJECT = 10;

/** The project already has MAX_DOMAINS_PER_PROJECT domains (409). */
export type TooManyDomains = DomainError<'HOSTING.TOO_MANY_DOMAINS'> & { readonly limit: number };

export const domainTaken = (host: string): DomainTaken => ({ code: 'HOSTING.DOMAIN_TAKEN', message: `${host} is already connected to a Kiln site.` });

/**
 * Connects a custom domain to a project's site (SPEC §5/§8: the same check as publishing — a
 * plan without published projects gets "doesn't include domain connections"). The domain starts
 * pending, with a random token; the answer lists the DNS records to create.
 */
export class AddCustomDomain {
  constructor(
    private readonly owned: OwnedProjects,
    private readonly checkPublishAllowed: CheckPublishAllowed,
    private readonly hosting: HostingRepository,
    private readonly urls: PublishedUrls,
    private readonly random: RandomSource,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(input: {
    userId: string;
    projectId: string;
    domainName: string;
  }): Promise<Result<DomainStatus, ProjectNotFound | PublishError | InvalidDomain | DomainTaken | TooManyDomains>> {
    const found = await this.owned.find(input.userId, input.projectId);
    if (!found.ok) return found;
    const host = parseCustomDomain(input.domainName, this.urls);
    if (!host.ok) return host;
    const allowed = await this.checkPublishAllowed.execute({ userId: input.userId, projectId: input.projectId });
    if (!allowed.ok) return allowed;
    const existing = await this.hosting.findDomainByHost(host.value);
    if (existing) {
      if (!this.isStaleClaim(existing, input.projectId)) return err(domainTaken(host.value));
      // Nobody proved control of it for a week: the claim lapses, so a name cannot be squatted.
      await this.hosting.removeDomain(existing.id);
    }
    if ((await this.hosting.listDomains(input.projectId)).length >= MAX_DOMAINS_PER_PROJECT) {
      return err({
        code: 'HOSTING.TOO_MANY_DOMAINS',
        limit: MAX_DOMAINS_PER_PROJECT,
        message: `A site can have at most ${MAX_DOMAINS_PER_PROJECT} custom domains. Remove one to add another.`,
      });
    }
    const domain = newCustomDomain(
      { id: this.ids.next(), projectId: input.projectId, host: host.value, verificationToken: verificationToken(this.random) },
      this.clock.now(),
    );
    try {
      await this.hosting.addDomain(domain);
    } catch (error) {
      // Two concurrent adds of one host: the repository's unique index lets one win.
      if (rejectedWith(error, 'HOSTING.DOMAIN_TAKEN')) return err(domainTaken(host.value));
      throw error;
    }
    return ok(domainStatusOf(domain, this.urls));
  }

  /** Another project's claim that never proved control of the host (pending or failed) and is older than STALE_CLAIM_MS. */
  private isStaleClaim(existing: CustomDomain, projectId: string): boolean {
    return (
      existing.projectId !== projectId &&
      (existing.status === 'pending' || existing.status === 'failed') &&
      this.clock.now().getTime() - existing.createdAt.getTime() >= STALE_CLAIM_MS
    );
  }
}
