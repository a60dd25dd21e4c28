import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/**
 * Table `auth_refresh_tokens`: each session's chain of refresh tokens, stored as digests (unique),
 * one per generation; at most one of a session's tokens is not revoked (a partial unique index).
 */
@Entity({ name: 'auth_refresh_tokens' })
export class RefreshTokenOrmEntity {
  @PrimaryGeneratedColumn('increment', { type: 'bigint' })
  id!: string;

  @Column({ name: 'token_hash', type: 'text', unique: true })
  tokenHash!: string;

  @Column({ name: 'session_id', type: 'text' })
  sessionId!: string;

  @Column({ type: 'integer' })
  generation!: number;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt!: Date | null;
}
