import { ApiProperty } from '@nestjs/swagger';
import { CURRENCIES, type Currency, PRO_MULTIPLIERS, type ProMultiplier } from '@kiln/domain';
import { IsDefined, IsIn, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';

export class CreateCheckoutSessionRequest {
  @ApiProperty({ example: 'pro_monthly' })
  @IsDefined({ message: 'is required' })
  @IsString()
  @MinLength(1)
  @MaxLength(64)
  plan_id!: string;

  /** The currency the page showed (GET/POST /api/pricing/currency); a different charge is refused with 409. */
  @ApiProperty({ enum: CURRENCIES, required: false })
  @IsOptional()
  @IsIn(CURRENCIES, { message: 'must be one of USD, INR' })
  currency?: Currency;

  /** SPEC §3 "Multiplier options 1x, 2x, 3x": the plan bought that many times (price and prompts). */
  @ApiProperty({ enum: PRO_MULTIPLIERS, required: false, default: 1, description: 'Charged as the quantity: the price per period is the plan price times this' })
  @IsOptional()
  @IsIn(PRO_MULTIPLIERS, { message: 'must be 1, 2 or 3' })
  multiplier?: ProMultiplier;
}

export class CancelSubscriptionRequest {
  @ApiProperty({ example: 'sub_1' })
  @IsDefined({ message: 'is required' })
  @IsString()
  @MinLength(1)
  @MaxLength(255)
  subscriptionId!: string;
}

export class UrlResponse {
  @ApiProperty() url!: string;
}
export class MessageResponse {
  @ApiProperty() message!: string;
}
export class PortalLink {
  @ApiProperty() link!: string;
}
export class PortalResponse {
  @ApiProperty({ type: PortalLink }) link!: PortalLink;
}
export class PaymentLinkResponse {
  @ApiProperty() paymentLink!: string;
}
export class ForcedPlanView {
  @ApiProperty() id!: string;
  @ApiProperty({ description: 'major units of currency' }) price!: number;
  @ApiProperty({ enum: ['USD', 'INR'] }) currency!: string;
  @ApiProperty({ enum: ['monthly', 'annual'], nullable: true, type: String }) billing_interval!: string | null;
}
export class SubscriptionView {
  @ApiProperty() id!: string;
  @ApiProperty() customer_id!: string;
  @ApiProperty() plan_id!: string;
  @ApiProperty({ enum: ['active', 'past_due', 'incomplete', 'canceled'] }) status!: string;
  @ApiProperty({ enum: ['monthly', 'annual'] }) billing_interval!: string;
  @ApiProperty({ format: 'date-time' }) current_period_start!: string;
  @ApiProperty({ format: 'date-time' }) current_period_end!: string;
  @ApiProperty() cancel_at_period_end!: boolean;
}
export class ForceUpdateResponse {
  @ApiProperty({ example: 'success' }) status!: string;
  @ApiProperty() message!: string;
  @ApiProperty({ type: ForcedPlanView }) plan!: ForcedPlanView;
  @ApiProperty({ type: SubscriptionView }) subscription!: SubscriptionView;
}

/** One line of the billing history (GET /api/payment/invoices). */
export class InvoiceView {
  @ApiProperty({ example: 'in_1' }) id!: string;
  @ApiProperty({ type: String, nullable: true, example: 'KILN-0001' }) number!: string | null;
  @ApiProperty({ enum: ['draft', 'open', 'paid', 'void', 'uncollectible'] }) status!: string;
  /** Integer minor units (cents, paise). */
  @ApiProperty({ example: 2500, description: 'integer minor units of currency' }) amount_minor!: number;
  @ApiProperty({ example: 'USD' }) currency!: string;
  @ApiProperty({ example: 'Pro Monthly' }) description!: string;
  @ApiProperty({ example: '2026-03-01T10:00:00.000Z' }) created_at!: string;
  @ApiProperty({ type: String, nullable: true, description: "the provider's invoice page" }) url!: string | null;
}
export class InvoicesResponse {
  @ApiProperty({ type: [InvoiceView] }) invoices!: InvoiceView[];
}
