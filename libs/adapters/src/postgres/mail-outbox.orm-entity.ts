import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** Table `mail_outbox`: mail "sent" in development and tests, read back by recipient. */
@Entity({ name: 'mail_outbox' })
export class MailOutboxOrmEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ type: 'text' })
  to!: string;

  @Column({ type: 'text' })
  subject!: string;

  @Column({ type: 'text' })
  text!: string;

  @Column({ type: 'text', nullable: true })
  html!: string | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
