import type { IncomingMessage, ServerResponse } from 'node:http';
import { type DynamicModule, Inject, Injectable, Module, type OnApplicationShutdown } from '@nestjs/common';
import {
  AddCustomDomain,
  type CertificateAuthority,
  CheckPublishAllowed,
  type DnsResolver,
  GetPublicSite,
  GetPublicSiteScreenshot,
  GetPublishStatus,
  GetSandboxMachine,
  type HostingProvider,
  IsTlsAllowed,
  ListPublishedSites,
  OwnedProjects,
  PublishProject,
  RemoveCustomDomain,
  RestartSite,
  RollbackRelease,
  type SiteScreenshotter,
  TakeDownSite,
  TakeSiteScreenshot,
  UnpublishProject,
  VerifyCustomDomain,
} from '@kiln/domain';
import { useCase } from '../common/use-case.provider.js';
import type { AppConfig } from '../config.js';
import { ProjectsModule } from '../projects/projects.module.js';
import {
  APP_CONFIG,
  CERTIFICATE_AUTHORITY,
  CLOCK,
  DNS_RESOLVER,
  HOSTING_ADAPTERS,
  HOSTING_PROVIDER,
  HOSTING_REPOSITORY,
  ID_GENERATOR,
  PROJECT_REPOSITORY,
  PROJECT_TAKEDOWN,
  PROBLEM_LOG,
  PUBLISHED_URLS,
  RANDOM_SOURCE,
  SANDBOX_HOST,
  SITE_SCREENSHOTTER,
  TURN_LOCK,
  DATABASE_SAFETY,
} from '../tokens.js';
import { FlyController } from './fly.controller.js';
import { PublicSitesController } from './public-sites.controller.js';
import { createPublishedUrls, ownHostsOf } from './published-urls.js';

/** The adapters publishing runs on, chosen by createApp's caller (main.ts the real ones, the tests the in-memory ones). */
export interface HostingAdapters {
  readonly provider: HostingProvider;
  readonly dns: DnsResolver;
  readonly certificates: CertificateAuthority;
  readonly screenshotter: SiteScreenshotter;
  /** The server of published sites on the API's port, put in front of Express by Host (bootstrap.ts); none in tests that do not serve. */
  readonly siteServer?: { matches(req: IncomingMessage): boolean; handle(req: IncomingMessage, res: ServerResponse): void };
  /** Releases what the adapters hold (the screenshotter's browser) when the app shuts down. */
  readonly close?: () => Promise<void>;
}

/** Closes the hosting adapters with the app. */
@Injectable()
class CloseHostingOnShutdown implements OnApplicationShutdown {
  constructor(@Inject(HOSTING_ADAPTERS) private readonly adapters: HostingAdapters) {}

  async onApplicationShutdown(): Promise<void> {
    await this.adapters.close?.();
  }
}

/**
 * Publishing, releases and custom domains (docs/hosting.md); HOSTING_REPOSITORY comes from the
 * persistence module. Global for PROJECT_TAKEDOWN, which the projects' delete needs (the
 * projects context cannot import hosting: hosting depends on it).
 */
@Module({})
export class HostingModule {
  static forRoot(adapters: HostingAdapters): DynamicModule {
    return {
      module: HostingModule,
      global: true,
      imports: [ProjectsModule],
      controllers: [FlyController, PublicSitesController],
      providers: [
        { provide: HOSTING_ADAPTERS, useValue: adapters },
        CloseHostingOnShutdown,
        { provide: HOSTING_PROVIDER, useValue: adapters.provider },
        { provide: DNS_RESOLVER, useValue: adapters.dns },
        { provide: CERTIFICATE_AUTHORITY, useValue: adapters.certificates },
        { provide: SITE_SCREENSHOTTER, useValue: adapters.screenshotter },
        {
          provide: PUBLISHED_URLS,
          useFactory: (config: AppConfig) =>
            createPublishedUrls(config.hosting, ownHostsOf([config.publicApiUrl, ...config.webOrigins, config.previewUrlTemplate])),
          inject: [APP_CONFIG],
        },
        useCase(PublishProject, [
          OwnedProjects,
          PROJECT_REPOSITORY,
          CheckPublishAllowed,
          HOSTING_REPOSITORY,
          HOSTING_PROVIDER,
          SANDBOX_HOST,
          PUBLISHED_URLS,
          ID_GENERATOR,
          CLOCK,
          TURN_LOCK,
          DATABASE_SAFETY,
        ]),
        useCase(UnpublishProject, [OwnedProjects, PROJECT_REPOSITORY, HOSTING_REPOSITORY, HOSTING_PROVIDER, PUBLISHED_URLS, CLOCK, TURN_LOCK]),
        useCase(RestartSite, [OwnedProjects, HOSTING_REPOSITORY, HOSTING_PROVIDER, PUBLISHED_URLS]),
        useCase(GetSandboxMachine, [OwnedProjects, SANDBOX_HOST, PROBLEM_LOG]),
        useCase(RollbackRelease, [OwnedProjects, HOSTING_REPOSITORY, HOSTING_PROVIDER, PUBLISHED_URLS, CLOCK, TURN_LOCK]),
        useCase(AddCustomDomain, [OwnedProjects, CheckPublishAllowed, HOSTING_REPOSITORY, PUBLISHED_URLS, RANDOM_SOURCE, ID_GENERATOR, CLOCK]),
        useCase(VerifyCustomDomain, [OwnedProjects, HOSTING_REPOSITORY, DNS_RESOLVER, CERTIFICATE_AUTHORITY, HOSTING_PROVIDER, PUBLISHED_URLS, CLOCK]),
        useCase(RemoveCustomDomain, [OwnedProjects, HOSTING_REPOSITORY, HOSTING_PROVIDER]),
        useCase(GetPublishStatus, [OwnedProjects, HOSTING_REPOSITORY, PUBLISHED_URLS]),
        useCase(ListPublishedSites, [PROJECT_REPOSITORY, HOSTING_REPOSITORY, PUBLISHED_URLS]),
        useCase(TakeSiteScreenshot, [OwnedProjects, HOSTING_REPOSITORY, SITE_SCREENSHOTTER, PUBLISHED_URLS, CLOCK]),
        useCase(IsTlsAllowed, [HOSTING_REPOSITORY, PROJECT_REPOSITORY, PUBLISHED_URLS]),
        useCase(GetPublicSite, [HOSTING_REPOSITORY, PROJECT_REPOSITORY, PUBLISHED_URLS]),
        useCase(GetPublicSiteScreenshot, [HOSTING_REPOSITORY, PROJECT_REPOSITORY]),
        useCase(TakeDownSite, [HOSTING_REPOSITORY, HOSTING_PROVIDER, PUBLISHED_URLS, CLOCK]),
        { provide: PROJECT_TAKEDOWN, useExisting: TakeDownSite },
      ],
      exports: [PUBLISHED_URLS, HOSTING_PROVIDER, IsTlsAllowed, PROJECT_TAKEDOWN],
    };
  }
}
