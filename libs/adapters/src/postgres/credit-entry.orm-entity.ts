import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/**
 * Table `credit_entries`: the append-only ledger (a trigger refuses UPDATE and DELETE). One row
 * per entry with typed columns per kind; portions as one column per bucket (0 = none).
 */
@Entity({ name: 'credit_entries' })
export class CreditEntryOrmEntity {
  /** Append order within an account (writers hold the account's row lock). */
  @PrimaryGeneratedColumn('increment', { type: 'bigint' })
  id!: string;

  @Column({ name: 'account_id', type: 'text' })
  accountId!: string;

  @Column({ type: 'text' })
  key!: string;

  @Column({ type: 'text' })
  kind!: string;

  @Column({ type: 'timestamptz' })
  at!: Date;

  /** grant, debit */
  @Column({ type: 'bigint', nullable: true })
  amount!: string | null;

  /** grant */
  @Column({ type: 'text', nullable: true })
  bucket!: string | null;

  /** grant */
  @Column({ type: 'text', nullable: true })
  reason!: string | null;

  /** debit */
  @Column({ type: 'boolean', nullable: true })
  metered!: boolean | null;

  /** debit, refund */
  @Column({ name: 'monthly_portion', type: 'bigint' })
  monthlyPortion!: string;

  @Column({ name: 'referral_portion', type: 'bigint' })
  referralPortion!: string;

  @Column({ name: 'addon_portion', type: 'bigint' })
  addonPortion!: string;

  /** debit: the cycle in force (null: none); cycle: its start */
  @Column({ name: 'cycle_start', type: 'timestamptz', nullable: true })
  cycleStart!: Date | null;

  /** cycle */
  @Column({ name: 'cycle_end', type: 'timestamptz', nullable: true })
  cycleEnd!: Date | null;

  /** cycle (null: unlimited) */
  @Column({ type: 'bigint', nullable: true })
  allowance!: string | null;

  /** cycle */
  @Column({ type: 'bigint', nullable: true })
  expired!: string | null;

  /** refund */
  @Column({ name: 'debit_key', type: 'text', nullable: true })
  debitKey!: string | null;
}
