import { type DynamicModule, Module } from '@nestjs/common';
import { type Clock, type CreditLedger, InProcessTurnLock, type ProfileRepository } from '@kiln/domain';
import {
  InMemoryCreditLedger,
  InMemoryRateLimiter,
  InMemoryTurnRepository,
  InMemoryTurnUndoJournal,
  InMemoryProfileRepository,
  InMemoryProjectRepository,
  InMemoryReferralCodes,
  InMemoryUnitOfWork,
  InMemoryProcessedPaymentEvents,
  InMemorySubscriptionStateVersions,
  InMemoryVectorIndex,
  InMemoryHostingRepository,
  InMemoryProjectDatabaseRepository,
  InMemoryMarketingOutbox,
  InMemoryAnalyticsEventStore,
  InMemoryAttachmentRepository,
} from '@kiln/domain/testing';
import {
  CLOCK,
  CREDIT_LEDGER,
  DATABASE_HEALTH,
  MAILER,
  MAIL_OUTBOX,
  PROCESSED_PAYMENT_EVENTS,
  PROFILE_REPOSITORY,
  PROJECT_REPOSITORY,
  REFERRAL_CODES,
  SUBSCRIPTION_STATE_VERSIONS,
  UNIT_OF_WORK,
  VECTOR_INDEX,
  TURN_REPOSITORY,
  TURN_UNDO_JOURNAL,
  LOCAL_CHECKOUT_STORE,
  RATE_LIMITER,
  TURN_LOCK,
  HOSTING_REPOSITORY,
  PROJECT_DATABASE_REPOSITORY,
  MARKETING_OUTBOX,
  LOCAL_MARKETING_AUDIENCE,
  ANALYTICS_EVENT_STORE,
  ATTACHMENT_REPOSITORY,
} from '../tokens.js';
import { InMemoryLocalCheckoutStore } from '@kiln/adapters';
import { InMemoryMailOutbox } from './in-memory-mail-outbox.js';
import { InMemoryLocalMarketing } from './in-memory-local-marketing.js';
import { LedgerBackedProfileRepository } from './ledger-backed-profile-repository.js';

export interface InMemoryPersistenceOptions {
  /** What GET /health reports for the database (tests pass `async () => false`). */
  readonly databaseHealth?: () => Promise<boolean>;
}

/** The tokens every persistence module provides (the PostgreSQL module provides the same). */
export const PERSISTENCE_TOKENS = [
  UNIT_OF_WORK,
  PROFILE_REPOSITORY,
  PROJECT_REPOSITORY,
  CREDIT_LEDGER,
  REFERRAL_CODES,
  DATABASE_HEALTH,
  MAILER,
  MAIL_OUTBOX,
  PROCESSED_PAYMENT_EVENTS,
  SUBSCRIPTION_STATE_VERSIONS,
  VECTOR_INDEX,
  TURN_REPOSITORY,
  TURN_UNDO_JOURNAL,
  LOCAL_CHECKOUT_STORE,
  RATE_LIMITER,
  TURN_LOCK,
  HOSTING_REPOSITORY,
  PROJECT_DATABASE_REPOSITORY,
  MARKETING_OUTBOX,
  LOCAL_MARKETING_AUDIENCE,
  ANALYTICS_EVENT_STORE,
  ATTACHMENT_REPOSITORY,
] as const;

/**
 * Persistence in process memory, from @kiln/domain/testing's in-memory adapters, for tests
 * (`KILN_E2E_PERSISTENCE=memory`, and specs that pass it to startTestApp). Everything is lost when
 * the app closes. Each call of forRoot() gives a fresh, empty store. main.ts always uses
 * PostgresPersistenceModule, which provides the same tokens.
 */
@Module({})
export class InMemoryPersistenceModule {
  static forRoot(options: InMemoryPersistenceOptions = {}): DynamicModule {
    const databaseHealth = options.databaseHealth ?? (() => Promise.resolve(true));
    return {
      module: InMemoryPersistenceModule,
      providers: [
        { provide: CREDIT_LEDGER, useFactory: () => new InMemoryCreditLedger() },
        {
          provide: PROFILE_REPOSITORY,
          useFactory: (ledger: CreditLedger) => new LedgerBackedProfileRepository(new InMemoryProfileRepository(), ledger),
          inject: [CREDIT_LEDGER],
        },
        { provide: PROJECT_REPOSITORY, useFactory: () => new InMemoryProjectRepository() },
        {
          provide: REFERRAL_CODES,
          useFactory: (profiles: ProfileRepository) => new InMemoryReferralCodes(profiles),
          inject: [PROFILE_REPOSITORY],
        },
        { provide: UNIT_OF_WORK, useFactory: () => new InMemoryUnitOfWork() },
        { provide: DATABASE_HEALTH, useValue: databaseHealth },
        { provide: InMemoryMailOutbox, useFactory: (clock: Clock) => new InMemoryMailOutbox(clock), inject: [CLOCK] },
        { provide: MAILER, useExisting: InMemoryMailOutbox },
        { provide: MAIL_OUTBOX, useExisting: InMemoryMailOutbox },
        { provide: MARKETING_OUTBOX, useFactory: () => new InMemoryMarketingOutbox() },
        { provide: LOCAL_MARKETING_AUDIENCE, useFactory: () => new InMemoryLocalMarketing() },
        { provide: PROCESSED_PAYMENT_EVENTS, useFactory: () => new InMemoryProcessedPaymentEvents() },
        { provide: SUBSCRIPTION_STATE_VERSIONS, useFactory: () => new InMemorySubscriptionStateVersions() },
        { provide: VECTOR_INDEX, useFactory: () => new InMemoryVectorIndex() },
        { provide: TURN_REPOSITORY, useFactory: () => new InMemoryTurnRepository() },
        { provide: TURN_UNDO_JOURNAL, useFactory: () => new InMemoryTurnUndoJournal() },
        { provide: LOCAL_CHECKOUT_STORE, useFactory: () => new InMemoryLocalCheckoutStore() },
        { provide: RATE_LIMITER, useFactory: (clock: Clock) => new InMemoryRateLimiter(clock), inject: [CLOCK] },
        { provide: TURN_LOCK, useFactory: () => new InProcessTurnLock() },
        { provide: HOSTING_REPOSITORY, useFactory: () => new InMemoryHostingRepository() },
        { provide: PROJECT_DATABASE_REPOSITORY, useFactory: () => new InMemoryProjectDatabaseRepository() },
        { provide: ANALYTICS_EVENT_STORE, useFactory: () => new InMemoryAnalyticsEventStore() },
        { provide: ATTACHMENT_REPOSITORY, useFactory: () => new InMemoryAttachmentRepository() },
      ],
      exports: [...PERSISTENCE_TOKENS],
    };
  }
}
