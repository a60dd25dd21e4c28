import { Controller, Get, HttpCode, Inject, Logger, Post, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiProperty, ApiResponse, ApiTags } from '@nestjs/swagger';
import { type AccessClaims, CURRENCIES, type CheckoutCurrencyDecision, type Currency, DecideCheckoutCurrency } from '@kiln/domain';
import type { Request } from 'express';
import { CurrentUser } from '../common/current-user.decorator.js';
import { ErrorResponse } from '../common/error-response.dto.js';
import { Public } from '../common/public.decorator.js';

export class CheckoutCurrencyResponse {
  @ApiProperty({ enum: CURRENCIES }) currency!: Currency;
  @ApiProperty({ type: String, nullable: true, example: 'IN' }) country_code!: string | null;
  @ApiProperty({ type: String, nullable: true, description: "SPEC §8 location message when the lookup failed (USD fallback)", example: null })
  error!: string | null;

  static from(d: CheckoutCurrencyDecision): CheckoutCurrencyResponse {
    return { currency: d.currency, country_code: d.countryCode, error: d.error };
  }
}

/**
 * The currency the pricing page and the upgrade dialog show. The browser does not guess it:
 * the server looks up the caller's IP (TRUST_PROXY decides which address that is) and, for a
 * signed-in person, stores the answer in preferred_currency, which checkout charges.
 */
@ApiTags('plans')
@Controller('api/pricing/currency')
export class CurrencyController {
  private readonly logger = new Logger('Currency');

  constructor(@Inject(DecideCheckoutCurrency) private readonly decide: DecideCheckoutCurrency) {}

  @Get()
  @Public()
  @ApiOperation({ summary: 'The checkout currency for this visitor (nothing stored)' })
  @ApiOkResponse({ type: CheckoutCurrencyResponse })
  async forVisitor(@Req() req: Request): Promise<CheckoutCurrencyResponse> {
    return this.answer(await this.decide.execute({ userId: null, clientIp: req.ip }));
  }

  @Post()
  @HttpCode(200)
  @ApiBearerAuth()
  @ApiOperation({ summary: "Decide the caller's checkout currency and store it in preferred_currency" })
  @ApiOkResponse({ type: CheckoutCurrencyResponse })
  @ApiResponse({ status: 401, type: ErrorResponse })
  async forUser(@CurrentUser() user: AccessClaims, @Req() req: Request): Promise<CheckoutCurrencyResponse> {
    return this.answer(await this.decide.execute({ userId: user.userId, clientIp: req.ip }));
  }

  private answer(decision: CheckoutCurrencyDecision): CheckoutCurrencyResponse {
    // SPEC §8: the failure is logged and the visitor still gets a price, in USD.
    if (decision.error !== null) this.logger.warn(`${decision.error}; checkout falls back to USD`);
    return CheckoutCurrencyResponse.from(decision);
  }
}
