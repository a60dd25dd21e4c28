import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * Table `profiles` (SPEC §3, snake_cased). The credit fields are not stored here: they are a
 * read model of the ledger, joined from `credit_accounts` when a profile is read.
 */
@Entity({ name: 'profiles' })
export class ProfileOrmEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ type: 'text' })
  name!: string;

  @Column({ type: 'text' })
  email!: string;

  /** 'YYYY-MM-DD' (the pool returns `date` values as text). */
  @Column({ name: 'date_of_birth', type: 'date', nullable: true })
  dateOfBirth!: string | null;

  @Column({ type: 'text', nullable: true })
  organization!: string | null;

  @Column({ type: 'text' })
  role!: string;

  @Column({ name: 'subscription_plan', type: 'text' })
  subscriptionPlan!: string;

  @Column({ name: 'subscription_id', type: 'text', nullable: true })
  subscriptionId!: string | null;

  @Column({ name: 'subscription_status', type: 'text', nullable: true })
  subscriptionStatus!: string | null;

  @Column({ name: 'billing_interval', type: 'text', nullable: true })
  billingInterval!: string | null;

  @Column({ name: 'customer_id', type: 'text', nullable: true })
  customerId!: string | null;

  @Column({ name: 'preferred_currency', type: 'text' })
  preferredCurrency!: string;

  @Column({ name: 'referral_code', type: 'text', unique: true })
  referralCode!: string;

  @Column({ name: 'referred_by', type: 'text', nullable: true })
  referredBy!: string | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;

  @Column({ name: 'last_sign_in_at', type: 'timestamptz', nullable: true })
  lastSignInAt!: Date | null;

  @Column({ name: 'billing_cycle_start_date', type: 'timestamptz', nullable: true })
  billingCycleStartDate!: Date | null;

  @Column({ name: 'billing_cycle_end_date', type: 'timestamptz', nullable: true })
  billingCycleEndDate!: Date | null;

  @Column({ name: 'first_purchased_date', type: 'timestamptz', nullable: true })
  firstPurchasedDate!: Date | null;

  @Column({ name: 'subscription_end_date', type: 'timestamptz', nullable: true })
  subscriptionEndDate!: Date | null;

  @Column({ name: 'pro_multiplier', type: 'smallint' })
  proMultiplier!: number;

  /** Set by account deletion: the row is kept but hidden from every lookup (never mapped to a Profile). */
  @Column({ name: 'deleted_at', type: 'timestamptz', nullable: true })
  deletedAt?: Date | null;
}
