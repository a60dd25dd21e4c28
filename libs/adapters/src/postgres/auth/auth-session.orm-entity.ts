import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Table `auth_sessions`: signed-in devices. Its row is the lock refreshes of the session take. */
@Entity({ name: 'auth_sessions' })
export class AuthSessionOrmEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ name: 'user_id', type: 'text' })
  userId!: string;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'refreshed_at', type: 'timestamptz', nullable: true })
  refreshedAt!: Date | null;

  @Column({ name: 'ended_at', type: 'timestamptz', nullable: true })
  endedAt!: Date | null;

  @Column({ name: 'end_reason', type: 'text', nullable: true })
  endReason!: string | null;

  @Column({ type: 'text' })
  aal!: string;

  /** GoTrue's `amr`: `[{ method, timestamp }]`. */
  @Column({ type: 'jsonb' })
  amr!: unknown;

  @Column({ name: 'token_secret', type: 'text' })
  tokenSecret!: string;
}
