import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * Table `auth_users`: the accounts of the built-in auth (GoTrue's `auth.users`, the fields Kiln
 * uses). A partial unique index on lower(email) WHERE deleted_at IS NULL keeps one live account
 * per address.
 */
@Entity({ name: 'auth_users' })
export class AuthUserOrmEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ name: 'identity_id', type: 'text' })
  identityId!: string;

  @Column({ type: 'text' })
  email!: string;

  @Column({ name: 'password_hash', type: 'text', nullable: true })
  passwordHash!: string | null;

  @Column({ name: 'email_confirmed_at', type: 'timestamptz', nullable: true })
  emailConfirmedAt!: Date | null;

  @Column({ type: 'text', nullable: true })
  phone!: string | null;

  @Column({ name: 'user_metadata', type: 'jsonb' })
  userMetadata!: unknown;

  @Column({ name: 'app_metadata', type: 'jsonb' })
  appMetadata!: unknown;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;

  @Column({ name: 'last_sign_in_at', type: 'timestamptz', nullable: true })
  lastSignInAt!: Date | null;

  @Column({ name: 'confirmation_sent_at', type: 'timestamptz', nullable: true })
  confirmationSentAt!: Date | null;

  @Column({ name: 'recovery_sent_at', type: 'timestamptz', nullable: true })
  recoverySentAt!: Date | null;

  @Column({ name: 'email_change', type: 'text', nullable: true })
  emailChange!: string | null;

  @Column({ name: 'email_change_sent_at', type: 'timestamptz', nullable: true })
  emailChangeSentAt!: Date | null;

  @Column({ name: 'deleted_at', type: 'timestamptz', nullable: true })
  deletedAt!: Date | null;
}
