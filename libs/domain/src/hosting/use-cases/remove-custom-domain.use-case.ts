import type { OwnedProjects } from '../../projects/owned-projects.js';
import type { ProjectNotFound } from '../../projects/project.errors.js';
import { type Result, err, ok } from '../../shared/result.js';
import type { CustomDomain } from '../custom-domain.entity.js';
import { parseDomainName } from '../domain-name.js';
import type { HostingProvider } from '../hosting-provider.port.js';
import type { HostingRepository } from '../hosting-repository.port.js';
import type { DomainNotFound } from '../hosting.errors.js';

export const domainNotFound = (host: string): DomainNotFound => ({ code: 'HOSTING.DOMAIN_NOT_FOUND', message: `${host} is not connected to this project.` });

/** Disconnects a custom domain: its route is removed first (the host stops answering), then the record. */
export class RemoveCustomDomain {
  constructor(
    private readonly owned: OwnedProjects,
    private readonly hosting: HostingRepository,
    private readonly provider: HostingProvider,
  ) {}

  async execute(input: { userId: string; projectId: string; domainName: string }): Promise<Result<CustomDomain, ProjectNotFound | DomainNotFound>> {
    const found = await this.owned.find(input.userId, input.projectId);
    if (!found.ok) return found;
    const host = parseDomainName(input.domainName);
    const domain = host.ok ? await this.hosting.findDomainByHost(host.value) : null;
    if (!domain || domain.projectId !== input.projectId) return err(domainNotFound(host.ok ? host.value : input.domainName.slice(0, 253)));
    await this.provider.deactivate([domain.host]);
    await this.hosting.removeDomain(domain.id);
    return ok(domain);
  }
}
