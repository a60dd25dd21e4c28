import type { MigrationInterface } from 'typeorm';
import { AuthSessionOrmEntity } from './auth/auth-session.orm-entity.js';
import { AuthUserOrmEntity } from './auth/auth-user.orm-entity.js';
import { OneTimeCodeOrmEntity } from './auth/one-time-code.orm-entity.js';
import { RefreshTokenOrmEntity } from './auth/refresh-token.orm-entity.js';
import { CreditAccountOrmEntity } from './credit-account.orm-entity.js';
import { CreditEntryOrmEntity } from './credit-entry.orm-entity.js';
import { MailOutboxOrmEntity } from './mail-outbox.orm-entity.js';
import { InitialSchema1795305600000 } from './migrations/1795305600000-initial-schema.js';
import { AuthSchema1795392000000 } from './migrations/1795392000000-auth-schema.js';
import { PaymentsSchema1795478400000 } from './migrations/1795478400000-payments-schema.js';
import { VectorIndex1795570000000 } from './migrations/1795570000000-vector-index.js';
import { AiTurns1795660000000 } from './migrations/1795660000000-ai-turns.js';
import { AiTurnUndoJournal1795750000000 } from './migrations/1795750000000-ai-turn-undo-journal.js';
import { LocalCheckout1795840000000 } from './migrations/1795840000000-local-checkout.js';
import { RateLimitBuckets1795930000000 } from './migrations/1795930000000-rate-limit-buckets.js';
import { Hosting1796020000000 } from './migrations/1796020000000-hosting.js';
import { ProjectDatabases1796110000000 } from './migrations/1796110000000-project-databases.js';
import { Marketing1796200000000 } from './migrations/1796200000000-marketing.js';
import { ProfilesDeletedAt1796217000000 } from './migrations/1796217000000-profiles-deleted-at.js';
import { MfaFactors1796247000000 } from './migrations/1796247000000-mfa-factors.js';
import { AnalyticsEvents1796250000000 } from './migrations/1796250000000-analytics-events.js';
import { ProjectAttachments1796263000000 } from './migrations/1796263000000-project-attachments.js';
import { ProfileOrmEntity } from './profile.orm-entity.js';
import { ProjectOrmEntity } from './project.orm-entity.js';

// Every table the DataSource knows, and every migration in the order they run. Explicit lists
// (no globs): append new entities and migrations here (e.g. auth's tables).

export const ENTITIES: readonly (new () => object)[] = [
  ProfileOrmEntity,
  ProjectOrmEntity,
  CreditAccountOrmEntity,
  CreditEntryOrmEntity,
  MailOutboxOrmEntity,
  AuthUserOrmEntity,
  OneTimeCodeOrmEntity,
  AuthSessionOrmEntity,
  RefreshTokenOrmEntity,
];

export const MIGRATIONS: readonly (new () => MigrationInterface)[] = [
  InitialSchema1795305600000,
  AuthSchema1795392000000,
  PaymentsSchema1795478400000,
  VectorIndex1795570000000,
  AiTurns1795660000000,
  AiTurnUndoJournal1795750000000,
  LocalCheckout1795840000000,
  RateLimitBuckets1795930000000,
  Hosting1796020000000,
  ProjectDatabases1796110000000,
  Marketing1796200000000,
  ProfilesDeletedAt1796217000000,
  MfaFactors1796247000000,
  AnalyticsEvents1796250000000,
  ProjectAttachments1796263000000,
];
