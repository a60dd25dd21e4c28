import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * Table `auth_one_time_codes`: at most one code per (email, purpose), stored as its digest.
 * A decoy has no user and no digest.
 */
@Entity({ name: 'auth_one_time_codes' })
export class OneTimeCodeOrmEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ type: 'text' })
  email!: string;

  @Column({ type: 'text' })
  purpose!: string;

  @Column({ name: 'user_id', type: 'text', nullable: true })
  userId!: string | null;

  @Column({ name: 'code_hash', type: 'text', nullable: true })
  codeHash!: string | null;

  @Column({ name: 'issued_at', type: 'timestamptz' })
  issuedAt!: Date;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;

  @Column({ name: 'failed_attempts', type: 'integer' })
  failedAttempts!: number;

  @Column({ name: 'consumed_at', type: 'timestamptz', nullable: true })
  consumedAt!: Date | null;
}
