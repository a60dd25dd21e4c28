import { Body, Controller, Get, Headers, HttpCode, Inject, Post, Put, Query, Req, UseFilters } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { AccessClaims, AccessTokenVerifier, AuthAction, AuthUseCases, IssuedSession, JsonWebKeySet, MfaUseCases } from '@kiln/domain';
import type { Request } from 'express';
import { Public } from '../common/public.decorator.js';
import { AUTH_USE_CASES, BUILT_IN_VERIFIER, MFA_USE_CASES } from './auth.tokens.js';
import { goTrueErrorFor, orThrow } from './gotrue-errors.js';
import { GoTrueExceptionFilter } from './gotrue-exception.filter.js';
import {
  bearerTokenOf,
  readGrantType,
  readLogoutScope,
  readOtp,
  readPasswordGrant,
  readRecover,
  readRefreshGrant,
  readResend,
  readSignUp,
  readUserUpdate,
  readVerify,
} from './gotrue-requests.js';
import { type GoTrueSession, type GoTrueUser, sessionJson, settingsJson, userJson } from './gotrue-wire.js';

/**
 * Supabase Auth (GoTrue) compatible endpoints, so @supabase/auth-js works unchanged
 * (/work/shared/GOTRUE.md is the contract). Thin: read the body, throttle per client address,
 * run the use case, write GoTrue's shapes. Errors leave through GoTrueExceptionFilter in
 * GoTrue's shapes, never the /api ones. Bodies are typed `unknown` so the global
 * ValidationPipe leaves them to the readers here (exact GoTrue messages, extra fields allowed).
 */
@ApiExcludeController()
@Public()
@UseFilters(GoTrueExceptionFilter)
@Controller('auth/v1')
export class GoTrueController {
  constructor(
    @Inject(AUTH_USE_CASES) private readonly auth: AuthUseCases,
    @Inject(BUILT_IN_VERIFIER) private readonly verifier: AccessTokenVerifier,
    @Inject(MFA_USE_CASES) private readonly mfa: MfaUseCases,
  ) {}

  @Post('signup')
  @HttpCode(200)
  async signUp(@Body() body: unknown, @Req() req: Request): Promise<GoTrueUser> {
    await this.throttle(req, 'signup');
    const signedUp = orThrow(await this.auth.signUp.execute(readSignUp(body)));
    return userJson(signedUp.user, { identities: signedUp.obfuscated ? 'none' : 'email' });
  }

  @Post('verify')
  @HttpCode(200)
  async verify(@Body() body: unknown, @Req() req: Request): Promise<GoTrueSession> {
    await this.throttle(req, 'verify');
    return this.sessionReply(orThrow(await this.auth.verifyOtp.execute(readVerify(body))));
  }

  @Post('otp')
  @HttpCode(200)
  async otp(@Body() body: unknown, @Req() req: Request): Promise<Record<string, never>> {
    await this.throttle(req, 'otp');
    orThrow(await this.auth.requestOtp.execute(readOtp(body)));
    return {};
  }

  @Post('resend')
  @HttpCode(200)
  async resend(@Body() body: unknown, @Req() req: Request): Promise<Record<string, never>> {
    await this.throttle(req, 'resend');
    orThrow(await this.auth.resendCode.execute(readResend(body)));
    return {};
  }

  @Post('recover')
  @HttpCode(200)
  async recover(@Body() body: unknown, @Req() req: Request): Promise<Record<string, never>> {
    await this.throttle(req, 'recover');
    orThrow(await this.auth.recover.execute(readRecover(body)));
    return {};
  }

  @Post('token')
  @HttpCode(200)
  async token(@Query('grant_type') grantType: unknown, @Body() body: unknown, @Req() req: Request): Promise<GoTrueSession> {
    const grant = readGrantType(grantType);
    if (grant === 'password') {
      await this.throttle(req, 'token_password');
      return this.sessionReply(orThrow(await this.auth.signInWithPassword.execute(readPasswordGrant(body))));
    }
    await this.throttle(req, 'token_refresh');
    return this.sessionReply(orThrow(await this.auth.refreshSession.execute(readRefreshGrant(body))));
  }

  @Post('logout')
  @HttpCode(204)
  async logout(@Query('scope') scope: unknown, @Headers('authorization') authorization: string | undefined): Promise<void> {
    const logoutScope = readLogoutScope(scope);
    const claims = await this.authenticate(authorization);
    orThrow(await this.auth.logout.execute({ userId: claims.userId, sessionId: claims.sessionId ?? '', scope: logoutScope }));
  }

  @Get('user')
  async user(@Headers('authorization') authorization: string | undefined): Promise<GoTrueUser> {
    const claims = await this.authenticate(authorization);
    const user = orThrow(await this.auth.getUser.execute({ userId: claims.userId }));
    return userJson(user, { factors: await this.mfa.list.execute({ userId: user.id }) });
  }

  @Put('user')
  async updateUser(@Body() body: unknown, @Headers('authorization') authorization: string | undefined): Promise<GoTrueUser> {
    const claims = await this.authenticate(authorization);
    const changes = readUserUpdate(body);
    orThrow(
      await this.mfa.checkCredentialChange.execute({
        userId: claims.userId,
        sessionId: claims.sessionId,
        aal: claims.aal,
        changesEmail: changes.email !== undefined,
        changesPassword: changes.password !== undefined,
      }),
    );
    const user = orThrow(await this.auth.updateUser.execute({ userId: claims.userId, sessionId: claims.sessionId, ...changes }));
    return userJson(user, { factors: await this.mfa.list.execute({ userId: user.id }) });
  }

  @Get('.well-known/jwks.json')
  jwks(): Promise<JsonWebKeySet> {
    return this.auth.publicKeys();
  }

  @Get('settings')
  settings(): ReturnType<typeof settingsJson> {
    return settingsJson();
  }

  @Get('health')
  health(): { version: string; name: string; description: string } {
    return { version: 'kiln', name: 'GoTrue', description: 'Kiln’s built-in auth, GoTrue wire-compatible' };
  }

  /** A session as GoTrue answers it, with the user's factors (auth-js reads aal2 as next from them). */
  private async sessionReply(session: IssuedSession): Promise<GoTrueSession> {
    return sessionJson(session, await this.mfa.list.execute({ userId: session.user.id }));
  }

  /** The claims of the bearer token; 401 no_authorization without one, 403 bad_jwt / session_not_found. */
  private async authenticate(authorization: string | undefined): Promise<AccessClaims> {
    const verified = await this.verifier.verify(bearerTokenOf(authorization));
    if (!verified.ok) throw goTrueErrorFor(verified.error);
    return verified.value;
  }

  private async throttle(req: Request, action: AuthAction): Promise<void> {
    orThrow(await this.auth.throttle.execute({ action, clientKey: req.ip ?? req.socket.remoteAddress ?? 'unknown' }));
  }
}
