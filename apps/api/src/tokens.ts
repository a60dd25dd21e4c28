// Symbol tokens of the ports the API injects. Adapters are bound to them by configuration
// (persistence/, auth/, mail/); use cases are built from them with useFactory.
export const CLOCK = Symbol('Clock');
export const RANDOM_SOURCE = Symbol('RandomSource');
export const ID_GENERATOR = Symbol('IdGenerator');
export const PLAN_CATALOG = Symbol('PlanCatalog');
export const UNIT_OF_WORK = Symbol('UnitOfWork');
export const PROFILE_REPOSITORY = Symbol('ProfileRepository');
export const PROJECT_REPOSITORY = Symbol('ProjectRepository');
export const CREDIT_LEDGER = Symbol('CreditLedger');
export const REFERRAL_CODES = Symbol('ReferralCodes');
export const MAILER = Symbol('Mailer');
export const ACCESS_TOKEN_VERIFIER = Symbol('AccessTokenVerifier');
/** A function `() => Promise<boolean>` telling whether the database answers (for /health). */
export const DATABASE_HEALTH = Symbol('DatabaseHealth');
