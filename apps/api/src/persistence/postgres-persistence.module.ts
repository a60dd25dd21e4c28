import { type DynamicModule, Inject, Logger, Module, type OnApplicationShutdown, type Provider } from '@nestjs/common';
import {
  PgCreditLedger,
  PgMailOutbox,
  PgMarketingAudience,
  PgMarketingOutbox,
  PgProcessedPaymentEvents,
  PgSubscriptionStateVersions,
  PgProfileRepository,
  PgProjectRepository,
  PgReferralCodes,
  PgUnitOfWork,
  PgVectorIndex,
  PgTurnRepository,
  PgHostingRepository,
  PgProjectDatabaseRepository,
  loadDatabaseSecretBox,
  PgTurnUndoJournal,
  PgLocalCheckoutStore,
  PgAdvisoryTurnLock,
  PgRateLimiter,
  PgAnalyticsEventStore,
  PgAttachmentRepository,
  type PostgresOptions,
  SmtpMailer,
  createDataSource,
  migrate,
} from '@kiln/adapters';
import type { Clock } from '@kiln/domain';
import type { DataSource } from 'typeorm';
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
  APP_CONFIG,
  PROJECT_DATABASE_REPOSITORY,
  MARKETING_OUTBOX,
  LOCAL_MARKETING_AUDIENCE,
  ANALYTICS_EVENT_STORE,
  ATTACHMENT_REPOSITORY,
} from '../tokens.js';
import type { AppConfig } from '../config.js';

/** The initialized, migrated TypeORM DataSource (for adapters that need more tables, e.g. auth's). */
export const POSTGRES_DATA_SOURCE = Symbol('PostgresDataSource');
/** The PgUnitOfWork itself (UNIT_OF_WORK gives the same instance, typed as the domain port). */
export const PG_UNIT_OF_WORK = Symbol('PgUnitOfWork');

export interface PostgresPersistenceOptions extends PostgresOptions {
  /** Run pending migrations before the app starts (default true). */
  readonly runMigrations?: boolean;
  /**
   * Where MAILER sends: an SMTP relay (SMTP_URL), or — when null or absent — the mail_outbox
   * table, which MAIL_OUTBOX reads back (development and tests).
   */
  readonly smtp?: { readonly url: string; readonly from: string } | null;
  /** Runs after the DataSource is closed on shutdown (main.ts stops the embedded server here). */
  readonly onClosed?: () => Promise<void>;
}

/** Called after the DataSource closed (see PostgresPersistenceOptions.onClosed). */
const ON_CLOSED = Symbol('PostgresOnClosed');

/** The `DATABASE_HEALTH` function: whether PostgreSQL answers `SELECT 1`. */
export type DatabaseHealth = () => Promise<boolean>;

/**
 * PostgreSQL persistence: one DataSource for the app (migrated on start, closed on shutdown) and
 * the Pg adapters bound to the port tokens — the same tokens as the tests' in-memory module
 * (testing/in-memory-persistence.module.ts: UNIT_OF_WORK, PROFILE_REPOSITORY, PROJECT_REPOSITORY,
 * CREDIT_LEDGER, REFERRAL_CODES, DATABASE_HEALTH, MAILER, MAIL_OUTBOX, RATE_LIMITER, TURN_LOCK…)
 * plus POSTGRES_DATA_SOURCE and PG_UNIT_OF_WORK. The rate limits' buckets and the turn lock are
 * in the database, so several API processes share them.
 * Global, so feature modules inject the tokens without importing it.
 *
 *   PostgresPersistenceModule.forRoot({ url: config.databaseUrl, smtp: config.smtpUrl ? { url: config.smtpUrl, from } : null })
 */
@Module({})
export class PostgresPersistenceModule implements OnApplicationShutdown {
  constructor(
    @Inject(POSTGRES_DATA_SOURCE) private readonly dataSource: DataSource,
    @Inject(TURN_LOCK) private readonly turnLock: PgAdvisoryTurnLock,
    @Inject(ON_CLOSED) private readonly onClosed: (() => Promise<void>) | null,
  ) {}

  static forRoot(options: PostgresPersistenceOptions): DynamicModule {
    const { runMigrations = true, smtp = null, onClosed, ...connection } = options;
    const providers: Provider[] = [
      { provide: ON_CLOSED, useValue: onClosed ?? null },
      {
        provide: POSTGRES_DATA_SOURCE,
        useFactory: async (): Promise<DataSource> => {
          const dataSource = createDataSource(connection);
          await dataSource.initialize();
          try {
            if (runMigrations) await migrate(dataSource);
          } catch (error) {
            await dataSource.destroy();
            throw error;
          }
          return dataSource;
        },
      },
      { provide: PG_UNIT_OF_WORK, useFactory: (ds: DataSource) => new PgUnitOfWork(ds), inject: [POSTGRES_DATA_SOURCE] },
      { provide: UNIT_OF_WORK, useExisting: PG_UNIT_OF_WORK },
      { provide: PROFILE_REPOSITORY, useFactory: (tx: PgUnitOfWork) => new PgProfileRepository(tx), inject: [PG_UNIT_OF_WORK] },
      { provide: PROJECT_REPOSITORY, useFactory: (tx: PgUnitOfWork) => new PgProjectRepository(tx), inject: [PG_UNIT_OF_WORK] },
      { provide: CREDIT_LEDGER, useFactory: (tx: PgUnitOfWork) => new PgCreditLedger(tx), inject: [PG_UNIT_OF_WORK] },
      { provide: REFERRAL_CODES, useFactory: (tx: PgUnitOfWork) => new PgReferralCodes(tx), inject: [PG_UNIT_OF_WORK] },
      { provide: PROCESSED_PAYMENT_EVENTS, useFactory: (tx: PgUnitOfWork) => new PgProcessedPaymentEvents(tx), inject: [PG_UNIT_OF_WORK] },
      { provide: SUBSCRIPTION_STATE_VERSIONS, useFactory: (tx: PgUnitOfWork) => new PgSubscriptionStateVersions(tx), inject: [PG_UNIT_OF_WORK] },
      { provide: VECTOR_INDEX, useFactory: (tx: PgUnitOfWork) => new PgVectorIndex(tx), inject: [PG_UNIT_OF_WORK] },
      { provide: TURN_REPOSITORY, useFactory: (tx: PgUnitOfWork) => new PgTurnRepository(tx), inject: [PG_UNIT_OF_WORK] },
      { provide: TURN_UNDO_JOURNAL, useFactory: (tx: PgUnitOfWork) => new PgTurnUndoJournal(tx), inject: [PG_UNIT_OF_WORK] },
      { provide: LOCAL_CHECKOUT_STORE, useFactory: (tx: PgUnitOfWork) => new PgLocalCheckoutStore(tx), inject: [PG_UNIT_OF_WORK] },
      { provide: RATE_LIMITER, useFactory: (ds: DataSource, clock: Clock) => new PgRateLimiter(ds, clock), inject: [POSTGRES_DATA_SOURCE, CLOCK] },
      { provide: TURN_LOCK, useFactory: () => new PgAdvisoryTurnLock(connection) },
      { provide: HOSTING_REPOSITORY, useFactory: (tx: PgUnitOfWork) => new PgHostingRepository(tx), inject: [PG_UNIT_OF_WORK] },
      { provide: MARKETING_OUTBOX, useFactory: (tx: PgUnitOfWork) => new PgMarketingOutbox(tx), inject: [PG_UNIT_OF_WORK] },
      { provide: LOCAL_MARKETING_AUDIENCE, useFactory: (tx: PgUnitOfWork) => new PgMarketingAudience(tx), inject: [PG_UNIT_OF_WORK] },
      { provide: ANALYTICS_EVENT_STORE, useFactory: (tx: PgUnitOfWork) => new PgAnalyticsEventStore(tx), inject: [PG_UNIT_OF_WORK] },
      { provide: ATTACHMENT_REPOSITORY, useFactory: (tx: PgUnitOfWork) => new PgAttachmentRepository(tx), inject: [PG_UNIT_OF_WORK] },
      {
        // Passwords and JWT secrets sealed with DATABASE_SECRETS_KEY (or the key generated under DATA_DIR/secrets).
        provide: PROJECT_DATABASE_REPOSITORY,
        useFactory: async (tx: PgUnitOfWork, config: AppConfig) =>
          new PgProjectDatabaseRepository(tx, await loadDatabaseSecretBox({ key: config.databases.secretsKey, dataDir: config.dataDir })),
        inject: [PG_UNIT_OF_WORK, APP_CONFIG],
      },
      {
        provide: PgMailOutbox,
        useFactory: (tx: PgUnitOfWork) => new PgMailOutbox(tx, (line) => new Logger('MailOutbox').log(line)),
        inject: [PG_UNIT_OF_WORK],
      },
      { provide: MAIL_OUTBOX, useExisting: PgMailOutbox },
      smtp ? { provide: MAILER, useFactory: () => new SmtpMailer(smtp) } : { provide: MAILER, useExisting: PgMailOutbox },
      {
        provide: DATABASE_HEALTH,
        useFactory:
          (ds: DataSource): DatabaseHealth =>
          async () => {
            try {
              await ds.query('SELECT 1');
              return true;
            } catch {
              return false;
            }
          },
        inject: [POSTGRES_DATA_SOURCE],
      },
    ];
    return {
      module: PostgresPersistenceModule,
      global: true,
      providers,
      exports: [
        POSTGRES_DATA_SOURCE,
        PG_UNIT_OF_WORK,
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
      ],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    // As when the process ends: the turn locks' connections close, so other processes get them.
    await this.turnLock.close();
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
    await this.onClosed?.();
  }
}
