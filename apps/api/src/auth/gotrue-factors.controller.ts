import { Body, Controller, Delete, Headers, HttpCode, Inject, Param, Post, Req, UseFilters } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { AccessClaims, AccessTokenVerifier, AuthUseCases, MfaUseCases } from '@kiln/domain';
import type { Request } from 'express';
import { Public } from '../common/public.decorator.js';
import { AUTH_USE_CASES, BUILT_IN_VERIFIER, MFA_USE_CASES } from './auth.tokens.js';
import { goTrueErrorFor, orThrow } from './gotrue-errors.js';
import { GoTrueExceptionFilter } from './gotrue-exception.filter.js';
import { bearerTokenOf, readEnroll, readId, readVerifyFactor } from './gotrue-requests.js';
import { type GoTrueSession, sessionJson } from './gotrue-wire.js';

export interface EnrollReply {
  readonly id: string;
  readonly type: 'totp';
  readonly friendly_name: string;
  /** `qr_code` is the bare SVG document, as GoTrue sends it (auth-js makes it a data URL). */
  readonly totp: { readonly qr_code: string; readonly secret: string; readonly uri: string };
}

/**
 * GoTrue's second-factor routes (internal/api/mfa.go), so `supabase.auth.mfa` works unchanged:
 * enrol, challenge, verify (answers an aal2 session), unenrol. Every route needs the bearer
 * token of a live session, checked by the built-in verifier (an aal1 token is enough here:
 * this is where the code is proved).
 */
@ApiExcludeController()
@Public()
@UseFilters(GoTrueExceptionFilter)
@Controller('auth/v1/factors')
export class GoTrueFactorsController {
  constructor(
    @Inject(MFA_USE_CASES) private readonly mfa: MfaUseCases,
    @Inject(AUTH_USE_CASES) private readonly auth: AuthUseCases,
    @Inject(BUILT_IN_VERIFIER) private readonly verifier: AccessTokenVerifier,
  ) {}

  @Post()
  @HttpCode(200)
  async enroll(@Body() body: unknown, @Headers('authorization') authorization: string | undefined): Promise<EnrollReply> {
    const claims = await this.authenticate(authorization);
    const enrolled = orThrow(await this.mfa.enroll.execute({ userId: claims.userId, aal: claims.aal, ...readEnroll(body) }));
    return {
      id: enrolled.factor.id,
      type: enrolled.factor.factorType,
      friendly_name: enrolled.factor.friendlyName,
      totp: { qr_code: enrolled.qrSvg, secret: enrolled.secret, uri: enrolled.uri },
    };
  }

  @Post(':factorId/challenge')
  @HttpCode(200)
  async challenge(
    @Param('factorId') factorId: string,
    @Headers('authorization') authorization: string | undefined,
  ): Promise<{ id: string; type: 'totp'; expires_at: number }> {
    const claims = await this.authenticate(authorization);
    const issued = orThrow(await this.mfa.challenge.execute({ userId: claims.userId, factorId: readId(factorId, 'factor id') }));
    return { id: issued.challenge.id, type: issued.factorType, expires_at: Math.floor(issued.expiresAt.getTime() / 1000) };
  }

  @Post(':factorId/verify')
  @HttpCode(200)
  async verify(
    @Param('factorId') factorId: string,
    @Body() body: unknown,
    @Headers('authorization') authorization: string | undefined,
    @Req() req: Request,
  ): Promise<GoTrueSession> {
    // Six digits are guessable: the per-address bucket of POST /verify limits the tries.
    orThrow(await this.auth.throttle.execute({ action: 'verify', clientKey: req.ip ?? req.socket.remoteAddress ?? 'unknown' }));
    const claims = await this.authenticate(authorization);
    const { challengeId, code } = readVerifyFactor(body);
    const session = orThrow(
      await this.mfa.verify.execute({
        userId: claims.userId,
        sessionId: claims.sessionId ?? '',
        factorId: readId(factorId, 'factor id'),
        challengeId: readId(challengeId, 'challenge_id'),
        code,
      }),
    );
    return sessionJson(session, await this.mfa.list.execute({ userId: claims.userId }));
  }

  @Delete(':factorId')
  async unenroll(@Param('factorId') factorId: string, @Headers('authorization') authorization: string | undefined): Promise<{ id: string }> {
    const claims = await this.authenticate(authorization);
    return orThrow(await this.mfa.unenroll.execute({ userId: claims.userId, aal: claims.aal, factorId: readId(factorId, 'factor id') }));
  }

  private async authenticate(authorization: string | undefined): Promise<AccessClaims> {
    const verified = await this.verifier.verify(bearerTokenOf(authorization));
    if (!verified.ok) throw goTrueErrorFor(verified.error);
    return verified.value;
  }
}
