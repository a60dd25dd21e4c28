import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * Table `credit_accounts`: one row per user, the fold of that user's ledger entries (balances,
 * the current allowance cycle, running totals). Every write to an account locks this row, so
 * it also serialises the account's entries. `bigint` columns arrive as strings.
 */
@Entity({ name: 'credit_accounts' })
export class CreditAccountOrmEntity {
  @PrimaryColumn({ name: 'user_id', type: 'text' })
  userId!: string;

  @Column({ type: 'bigint' })
  monthly!: string;

  @Column({ type: 'bigint' })
  referral!: string;

  @Column({ type: 'bigint' })
  addon!: string;

  /** Null: no cycle started yet. */
  @Column({ name: 'cycle_start', type: 'timestamptz', nullable: true })
  cycleStart!: Date | null;

  @Column({ name: 'cycle_end', type: 'timestamptz', nullable: true })
  cycleEnd!: Date | null;

  /** Null with a cycle: unlimited prompts. */
  @Column({ name: 'cycle_allowance', type: 'bigint', nullable: true })
  cycleAllowance!: string | null;

  @Column({ type: 'bigint' })
  granted!: string;

  @Column({ type: 'bigint' })
  expired!: string;

  @Column({ type: 'bigint' })
  consumed!: string;

  @Column({ type: 'bigint' })
  refunded!: string;

  @Column({ name: 'cycle_usage', type: 'bigint' })
  cycleUsage!: string;

  @Column({ name: 'referral_granted', type: 'bigint' })
  referralGranted!: string;

  @Column({ name: 'addon_granted', type: 'bigint' })
  addonGranted!: string;
}
