// Symbol tokens of the ports (and configured values) the API injects. Adapters are bound to them
// by configuration (persistence/, auth/, mail/); use cases are provided under their own class
// with useCase() (common/use-case.provider.ts). docs/architecture.md § Wiring the API.
export const CLOCK = Symbol('Clock');
/** ObjectStore: where file bytes live (storage on the data origin, the builder's attachments; issue 18). */
export const OBJECT_STORE = Symbol('ObjectStore');
export const RANDOM_SOURCE = Symbol('RandomSource');
export const ID_GENERATOR = Symbol('IdGenerator');
export const PLAN_CATALOG = Symbol('PlanCatalog');
export const UNIT_OF_WORK = Symbol('UnitOfWork');
export const PROFILE_REPOSITORY = Symbol('ProfileRepository');
export const PROJECT_REPOSITORY = Symbol('ProjectRepository');
export const CREDIT_LEDGER = Symbol('CreditLedger');
export const REFERRAL_CODES = Symbol('ReferralCodes');
export const MAILER = Symbol('Mailer');
/** ProcessedPaymentEvents: webhook event ids applied, in the effect's transaction. */
export const PROCESSED_PAYMENT_EVENTS = Symbol('ProcessedPaymentEvents');
/** SubscriptionStateVersions: provider time of each user's last applied subscription state. */
export const SUBSCRIPTION_STATE_VERSIONS = Symbol('SubscriptionStateVersions');
/** PaymentGateway: Stripe when STRIPE_SECRET_KEY is set, else the local test checkout. */
export const PAYMENT_GATEWAY = Symbol('PaymentGateway');
/** PaymentWebhookVerifier for POST /api/payment/webhook (Stripe only). */
export const PAYMENT_WEBHOOK_VERIFIER = Symbol('PaymentWebhookVerifier');
export const ACCESS_TOKEN_VERIFIER = Symbol('AccessTokenVerifier');
/** A function `() => Promise<boolean>` telling whether the database answers (for /health). */
export const DATABASE_HEALTH = Symbol('DatabaseHealth');
/** Whether the sandbox engine answers (SANDBOX_ENGINE=docker), or null where sandboxes need no engine. */
export const SANDBOX_ENGINE_HEALTH = Symbol('SandboxEngineHealth');

/** SandboxHost: the project sandboxes (LocalSandboxHost in main.ts, in memory otherwise). */
export const SANDBOX_HOST = Symbol('SandboxHost');
/** Whether project code runs isolated on this server (SandboxIsolation), for the builder's warning. */
export const SANDBOX_ISOLATION = Symbol('SandboxIsolation');
/** The repository import (SetupRepository's RepositoryImporter): SandboxedGitImporter in main.ts, or none (503). */
export const REPOSITORY_IMPORTER = Symbol('RepositoryImporter');
/** Test-only origins parseGitUrl allows (REPOSITORY_IMPORT_TEST_ORIGINS). */
export const REPOSITORY_URL_OPTIONS = Symbol('RepositoryUrlOptions');

/** VectorIndex: each project's searchable files (PgVectorIndex on PostgreSQL, in memory otherwise). */
export const VECTOR_INDEX = Symbol('VectorIndex');

/** The validated `AppConfig` (config.ts). */
export const APP_CONFIG = Symbol('AppConfig');

/** One mail as the outbox keeps it (what was handed to the Mailer, and when). */
export interface OutboxMessage {
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  readonly created_at: Date;
}

/**
 * Mail that was sent, readable per recipient (newest first). Backs `GET /api/dev/outbox` so a
 * developer or an e2e test can read one-time codes without a mail server.
 */
export interface MailOutbox {
  list(email: string): Promise<OutboxMessage[]>;
}
export const MAIL_OUTBOX = Symbol('MailOutbox');

/** AiAssistant: the model behind the AI routes (createAiAssistant from config; offline by default). */
export const AI_ASSISTANT = Symbol('AiAssistant');
/** TurnRepository: a project’s chat turns (PostgreSQL, or memory with the in-memory persistence). */
export const TURN_REPOSITORY = Symbol('TurnRepository');
/** TurnUndoJournal: how to undo each running turn, for the next start after a crash (PostgreSQL, or memory). */
export const TURN_UNDO_JOURNAL = Symbol('TurnUndoJournal');
/** The local test checkout's sessions and subscriptions (LocalCheckoutStore). */
export const LOCAL_CHECKOUT_STORE = Symbol('LocalCheckoutStore');
/** ProjectTurnLock: one turn at a time per project (PgAdvisoryTurnLock across processes on PostgreSQL, in process in tests). */
export const TURN_LOCK = Symbol('ProjectTurnLock');
/** RateLimiter: the token buckets of the auth and AI rate limits (PgRateLimiter on PostgreSQL, in memory in tests). */
export const RATE_LIMITER = Symbol('RateLimiter');
/** The token-bucket rule of the free AI helper routes (aiRequestRule of AI_RATE_LIMIT_PER_MINUTE). */
export const AI_REQUEST_RULE = Symbol('AiRequestRule');
/** The most characters sent with each AI request (AI_CONTEXT_CHARS), a number. */
export const AI_CONTEXT_LIMIT = Symbol('AiContextLimit');
/** The TurnDependencies object the turn use cases share. */
export const TURN_DEPENDENCIES = Symbol('TurnDependencies');
/** The turns this process runs (RunningTurns): how a Stop reaches a turn running detached from its request. */
export const RUNNING_TURNS = Symbol('RunningTurns');
/** ProjectFilesChanged: the feed and the search index follow a project's files (FeedAndIndexFilesChanged). */
export const PROJECT_FILES_CHANGED = Symbol('ProjectFilesChanged');
/** CommandFeed: a named command's output on the project's realtime feed (FeedCommandOutput). */
export const COMMAND_FEED = Symbol('CommandFeed');
/** ProblemLog: where use cases report the failures they recovered from (a Nest Logger). */
export const PROBLEM_LOG = Symbol('ProblemLog');

/** HostingRepository: published sites, releases, custom domains, screenshots (PgHostingRepository, or memory). */
export const HOSTING_REPOSITORY = Symbol('HostingRepository');
/** HostingProvider: builds releases in the sandbox and serves them (from createApp's caller). */
export const HOSTING_PROVIDER = Symbol('HostingProvider');
/** DnsResolver: custom-domain checks (from createApp's caller; DNS_SERVERS). */
export const DNS_RESOLVER = Symbol('DnsResolver');
/** CertificateAuthority: a verified custom domain's TLS certificate (from createApp's caller). */
export const CERTIFICATE_AUTHORITY = Symbol('CertificateAuthority');
/** SiteScreenshotter: pictures of published sites (from createApp's caller). */
export const SITE_SCREENSHOTTER = Symbol('SiteScreenshotter');
/** PublishedUrls: where published sites live, built from PUBLISHED_URL_TEMPLATE (hosting/published-urls.ts). */
export const PUBLISHED_URLS = Symbol('PublishedUrls');
/** ProjectTakedown: a deleted project's site stops being served (hosting's TakeDownSite, bound by HostingModule). */
export const PROJECT_TAKEDOWN = Symbol('ProjectTakedown');
/** ProjectDatabaseRemoval: a deleted project's database is dropped (databases' DropProjectDatabase, bound by DatabasesModule). */
export const PROJECT_DATABASE_REMOVAL = Symbol('ProjectDatabaseRemoval');
/** The hosting adapters as createApp's caller gave them (their shutdown). */
export const HOSTING_ADAPTERS = Symbol('HOSTING_ADAPTERS');

/** DatabaseProvisioner: creates, drops and inspects project databases (from createApp's caller: local PostgreSQL, Neon, or memory). */
export const DATABASE_PROVISIONER = Symbol('DatabaseProvisioner');
/** ProjectDatabaseRepository: Kiln's records of project databases and their sealed secrets (persistence module). */
export const PROJECT_DATABASE_REPOSITORY = Symbol('ProjectDatabaseRepository');
/** The publish gate's view of a project's database (tables with RLS off); exported globally by DatabasesModule. */
export const DATABASE_SAFETY = Symbol('DatabaseSafety');
export const SCHEMA_MIGRATOR = Symbol('SchemaMigrator');
/** DatabasePlanLimits: per-plan size quota, connections and statement timeout (config). */
export const DATABASE_PLAN_LIMITS = Symbol('DatabasePlanLimits');
/** The database adapters as createApp's caller gave them (their shutdown). */
export const DATABASE_ADAPTERS = Symbol('DATABASE_ADAPTERS');
/** The data origin's server (DataOriginHandler) or null when project databases are not served. */
export const DATA_ORIGIN = Symbol('DATA_ORIGIN');

/** GeoLocator: the IP lookup that picks the checkout currency (IpWhoIsGeoLocator with GEOLOCATION_URL, else none). */
export const GEO_LOCATOR = Symbol('GeoLocator');

/** MarketingOutbox: contact updates, events and removals waiting for the audience (persistence module). */
export const MARKETING_OUTBOX = Symbol('MarketingOutbox');
/** The local default MarketingAudience (PostgreSQL, or memory), also read by /api/dev/marketing (persistence module). */
export const LOCAL_MARKETING_AUDIENCE = Symbol('LocalMarketingAudience');
/** MarketingAudience: Brevo when BREVO_API_KEY is set, else LOCAL_MARKETING_AUDIENCE (MarketingModule). */
export const MARKETING_AUDIENCE = Symbol('MarketingAudience');
/** AccountActivityListener: marketing's MarketingContactSync (MarketingModule, global). */
export const ACCOUNT_ACTIVITY = Symbol('AccountActivityListener');

/** What /api/dev/marketing reads from the local audience. */
export interface LocalMarketingView {
  contacts(email?: string): Promise<readonly { email: string; attributes: object; createdAt: Date; updatedAt: Date }[]>;
  events(email?: string): Promise<readonly { email: string | null; eventName: string; identifiers: object; properties: object; occurredAt: Date }[]>;
}
/** AnalyticsEventStore: first-party page views and events (PgAnalyticsEventStore, or memory in tests). */
export const ANALYTICS_EVENT_STORE = Symbol('AnalyticsEventStore');
/** Files attached to prompts (issue 18 item 3): their rows; the bytes are in OBJECT_STORE. */
export const ATTACHMENT_REPOSITORY = Symbol('AttachmentRepository');
/** RemoveProjectAttachments, for the projects' delete. */
export const PROJECT_ATTACHMENT_REMOVAL = Symbol('ProjectAttachmentRemoval');
