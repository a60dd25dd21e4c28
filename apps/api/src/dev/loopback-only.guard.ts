import { type CanActivate, type ExecutionContext, HttpStatus, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { ApiErrorException, DEV_LOOPBACK_ONLY } from '../error-mapping.js';

const LOOPBACK = /^(127(\.\d{1,3}){3}|::1|::ffff:127(\.\d{1,3}){3})$/i;

/** Whether a socket's peer address is this machine (IPv4 127/8, IPv6 ::1, or 127/8 mapped into IPv6). */
export function isLoopbackAddress(address: string | undefined): boolean {
  return typeof address === 'string' && LOOPBACK.test(address);
}

/** The request headers a proxy adds when it relays someone else's request. */
const FORWARDING_HEADERS = ['forwarded', 'x-forwarded-for', 'x-real-ip'];

/**
 * Whether a request comes from this machine: the TCP peer (`socket.remoteAddress`, never a
 * header, whatever TRUST_PROXY says) is loopback, and no proxy says it relays it for someone
 * else — a reverse proxy on this machine connects from loopback too.
 */
export function isLocalRequest(req: Pick<Request, 'headers'> & { readonly socket: { readonly remoteAddress?: string | undefined } }): boolean {
  if (!isLoopbackAddress(req.socket.remoteAddress)) return false;
  return FORWARDING_HEADERS.every((name) => req.headers[name] === undefined);
}

/**
 * For development helpers that reveal other people's data (the dev outbox: anyone's one-time
 * codes): only clients on this machine; anyone else gets 403 DEV.LOOPBACK_ONLY.
 */
@Injectable()
export class LoopbackOnlyGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    if (context.getType() !== 'http') return false;
    if (isLocalRequest(context.switchToHttp().getRequest<Request>())) return true;
    throw new ApiErrorException({
      status: HttpStatus.FORBIDDEN,
      body: { code: DEV_LOOPBACK_ONLY, detail: 'This development route answers only requests from this machine (loopback)' },
    });
  }
}
