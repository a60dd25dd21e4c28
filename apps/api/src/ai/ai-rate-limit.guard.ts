import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { ThrottleAiRequest } from '@kiln/domain';
import type { Response } from 'express';
import type { AuthenticatedRequest } from '../common/authenticated-request.js';
import { toException } from '../error-mapping.js';

/**
 * In front of the free AI helpers (docs/ai-api.md): one token bucket per signed-in user
 * (AI_RATE_LIMIT_PER_MINUTE). Over it: 429 AI.RATE_LIMITED with `retry_after_seconds` and a
 * Retry-After header. Runs after the global BearerAuthGuard, so the user is known.
 */
@Injectable()
export class AiRateLimitGuard implements CanActivate {
  constructor(@Inject(ThrottleAiRequest) private readonly throttle: ThrottleAiRequest) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const request = http.getRequest<AuthenticatedRequest>();
    const decision = await this.throttle.execute({ userId: request.user.userId });
    if (decision.ok) return true;
    http.getResponse<Response>().setHeader('Retry-After', String(decision.error.retryAfterSeconds));
    throw toException(decision.error);
  }
}
