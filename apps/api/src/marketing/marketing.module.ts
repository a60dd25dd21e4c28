import { type DynamicModule, Logger, Module } from '@nestjs/common';
import { BrevoMarketingAudience } from '@kiln/adapters';
import { DeliverMarketingOutbox, FailedContactCache, MarketingContactSync, RemoveMarketingContact, TrackMarketingEvent, UpdateMarketingContact } from '@kiln/domain';
import { useCase } from '../common/use-case.provider.js';
import type { AppConfig } from '../config.js';
import {
  ACCOUNT_ACTIVITY,
  CLOCK,
  CREDIT_LEDGER,
  LOCAL_MARKETING_AUDIENCE,
  MARKETING_AUDIENCE,
  MARKETING_OUTBOX,
  PROFILE_REPOSITORY,
  PROJECT_REPOSITORY,
} from '../tokens.js';
import { BrevoController } from './brevo.controller.js';
import { MarketingWorker } from './marketing-worker.js';

/** Marketing's ProblemLog: its warnings are logged under the "Marketing" context. */
const MARKETING_PROBLEM_LOG = Symbol('MarketingProblemLog');

/**
 * Marketing contacts (issue #17 item 1): the two /api/brevo routes, the outbox worker, and
 * ACCOUNT_ACTIVITY (MarketingContactSync), which the sign-up, plan-change, purchase and
 * prompt use cases tell. Global, so those modules and account deletion (RemoveMarketingContact)
 * inject them without importing it. The audience is Brevo with BREVO_API_KEY, else the
 * persistence module's local store.
 */
@Module({})
export class MarketingModule {
  static forRoot(config: AppConfig): DynamicModule {
    const { brevoApiKey, brevoBaseUrl, brevoTimeoutMs } = config.marketing;
    const audience =
      brevoApiKey === null
        ? { provide: MARKETING_AUDIENCE, useExisting: LOCAL_MARKETING_AUDIENCE }
        : {
            provide: MARKETING_AUDIENCE,
            useFactory: () => new BrevoMarketingAudience({ apiKey: brevoApiKey, timeoutMs: brevoTimeoutMs, ...(brevoBaseUrl === null ? {} : { baseUrl: brevoBaseUrl }) }),
          };
    return {
      module: MarketingModule,
      global: true,
      controllers: [BrevoController],
      providers: [
        audience,
        { provide: MARKETING_PROBLEM_LOG, useValue: new Logger('Marketing') },
        // One cache per process: contacts that failed here wait until it clears (every 5 minutes).
        useCase(FailedContactCache, [CLOCK]),
        useCase(MarketingContactSync, [PROFILE_REPOSITORY, CREDIT_LEDGER, PROJECT_REPOSITORY, MARKETING_OUTBOX, MARKETING_PROBLEM_LOG]),
        { provide: ACCOUNT_ACTIVITY, useExisting: MarketingContactSync },
        useCase(DeliverMarketingOutbox, [MARKETING_OUTBOX, MARKETING_AUDIENCE, CLOCK, FailedContactCache, MARKETING_PROBLEM_LOG]),
        useCase(UpdateMarketingContact, [MARKETING_OUTBOX, CLOCK]),
        useCase(TrackMarketingEvent, [MARKETING_OUTBOX, CLOCK]),
        useCase(RemoveMarketingContact, [MARKETING_OUTBOX, CLOCK]),
        MarketingWorker,
      ],
      exports: [ACCOUNT_ACTIVITY, RemoveMarketingContact, DeliverMarketingOutbox, MARKETING_AUDIENCE, MarketingWorker],
    };
  }
}
