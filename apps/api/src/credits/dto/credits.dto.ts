import { ApiProperty } from '@nestjs/swagger';
import { type Balances, clientKeyOf, type DebitEntry, type Portion } from '@kiln/domain';
import { iso } from '../../common/wire.js';

export class PortionView {
  @ApiProperty({ enum: ['monthly', 'referral', 'addon'], description: 'monthly = credits, referral = referral_credits, addon = extra_credits' })
  bucket!: string;

  @ApiProperty()
  amount!: number;

  static from(portion: Portion): PortionView {
    return { bucket: portion.bucket, amount: portion.amount };
  }
}

export class BalancesView {
  @ApiProperty({ description: 'Monthly allowance left' })
  credits!: number;

  @ApiProperty()
  referral_credits!: number;

  @ApiProperty()
  extra_credits!: number;

  static from(balances: Balances): BalancesView {
    return { credits: balances.monthly, referral_credits: balances.referral, extra_credits: balances.addon };
  }
}

export class DebitView {
  @ApiProperty({ description: 'The Idempotency-Key of the request that charged it' })
  idempotency_key!: string;

  @ApiProperty()
  amount!: number;

  @ApiProperty({ description: 'false on a plan with unlimited prompts: counted, not charged' })
  metered!: boolean;

  @ApiProperty({ type: [PortionView] })
  portions!: PortionView[];

  @ApiProperty({ format: 'date-time' })
  at!: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  cycle_start!: string | null;

  static from(debit: DebitEntry): DebitView {
    return {
      idempotency_key: clientKeyOf(debit.key),
      amount: debit.amount,
      metered: debit.metered,
      portions: debit.portions.map(PortionView.from),
      at: iso(debit.at),
      cycle_start: iso(debit.cycleStart),
    };
  }
}

export class ConsumeCreditResponse {
  @ApiProperty({ description: 'credits + referral_credits + extra_credits after this prompt' })
  credits_remaining!: number;

  @ApiProperty({ description: 'true when this Idempotency-Key had already been charged: nothing new was debited' })
  replayed!: boolean;

  @ApiProperty({ type: DebitView })
  debit!: DebitView;

  @ApiProperty({ type: BalancesView })
  balances!: BalancesView;
}
