import { Controller, HttpCode, Inject, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiHeader, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { type AccessClaims, ConsumePromptCredit, promptDebitKey } from '@kiln/domain';
import { CurrentUser } from '../common/current-user.decorator.js';
import { ErrorResponse } from '../common/error-response.dto.js';
import { unwrap } from '../error-mapping.js';
import { BalancesView, ConsumeCreditResponse, DebitView } from './dto/credits.dto.js';
import { IDEMPOTENCY_KEY_HEADER, IdempotencyKey } from './idempotency-key.js';

@ApiTags('credits')
@ApiBearerAuth()
@ApiResponse({ status: 400, type: ErrorResponse, description: 'VALIDATION_FAILED' })
@ApiResponse({ status: 401, type: ErrorResponse, description: 'no_authorization / bad_jwt / session_not_found' })
@Controller('api/credits')
export class CreditsController {
  // Refunds are not exposed: the server refunds a prompt when it reverts a turn or the AI
  // provider fails (RefundPromptCredit, used by the AI endpoints); a client-facing refund
  // would let anyone undo their own charges.
  constructor(@Inject(ConsumePromptCredit) private readonly consumePromptCredit: ConsumePromptCredit) {}

  /** Charges one prompt. Retrying with the same Idempotency-Key never charges twice. */
  @Post('consume')
  @ApiOperation({ summary: 'Charge one prompt (idempotent per Idempotency-Key)' })
  @HttpCode(200)
  @ApiHeader({ name: IDEMPOTENCY_KEY_HEADER, required: true, description: 'One per message or task; 1–200 printable characters' })
  @ApiOkResponse({ type: ConsumeCreditResponse })
  @ApiResponse({ status: 402, type: ErrorResponse, description: "CREDITS.LIMIT_REACHED, limit_type 'credit'" })
  @ApiResponse({ status: 409, type: ErrorResponse, description: 'CREDITS.IDEMPOTENCY_CONFLICT' })
  async consume(@CurrentUser() user: AccessClaims, @IdempotencyKey() key: string): Promise<ConsumeCreditResponse> {
    const consumed = unwrap(await this.consumePromptCredit.execute({ userId: user.userId, idempotencyKey: promptDebitKey(key) }));
    return {
      credits_remaining: consumed.creditsRemaining,
      replayed: consumed.replayed,
      debit: DebitView.from(consumed.debit),
      balances: BalancesView.from(consumed.balances),
    };
  }
}
