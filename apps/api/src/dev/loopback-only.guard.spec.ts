import { describe, expect, it } from '@jest/globals';
import type { ExecutionContext } from '@nestjs/common';
import { ApiErrorException } from '../error-mapping.js';
import { LoopbackOnlyGuard, isLocalRequest, isLoopbackAddress } from './loopback-only.guard.js';

const request = (remoteAddress: string | undefined, headers: Record<string, string> = {}) => ({ socket: { remoteAddress }, headers });

describe('isLoopbackAddress', () => {
  it.each(['127.0.0.1', '127.1.2.3', '::1', '::ffff:127.0.0.1', '::FFFF:127.0.0.1'])('%s is this machine', (address) => {
    expect(isLoopbackAddress(address)).toBe(true);
  });

  it.each([undefined, '', '192.0.2.2', '10.0.0.1', '::ffff:10.0.0.1', 'fd00::2', '0.0.0.0', '::', '127.0.0.1.example.com', 'localhost', '1127.0.0.1', '::2'])(
    '%s is not',
    (address) => {
      expect(isLoopbackAddress(address)).toBe(false);
    },
  );
});

describe('isLocalRequest (the TCP peer, never a header)', () => {
  it('a loopback peer without proxy headers is local', () => {
    expect(isLocalRequest(request('127.0.0.1'))).toBe(true);
    expect(isLocalRequest(request('::ffff:127.0.0.1'))).toBe(true);
  });

  it('a remote peer is not local, whatever X-Forwarded-For claims', () => {
    expect(isLocalRequest(request('203.0.113.9'))).toBe(false);
    expect(isLocalRequest(request('203.0.113.9', { 'x-forwarded-for': '127.0.0.1' }))).toBe(false);
    expect(isLocalRequest(request('203.0.113.9', { forwarded: 'for=127.0.0.1' }))).toBe(false);
    expect(isLocalRequest(request(undefined))).toBe(false);
  });

  it('a loopback peer relaying for someone else (a proxy on this machine) is not local', () => {
    expect(isLocalRequest(request('127.0.0.1', { 'x-forwarded-for': '203.0.113.9' }))).toBe(false);
    expect(isLocalRequest(request('::1', { forwarded: 'for=203.0.113.9' }))).toBe(false);
    expect(isLocalRequest(request('127.0.0.1', { 'x-real-ip': '203.0.113.9' }))).toBe(false);
  });
});

describe('LoopbackOnlyGuard', () => {
  const context = (req: ReturnType<typeof request>) => ({ getType: () => 'http', switchToHttp: () => ({ getRequest: () => req }) }) as unknown as ExecutionContext;

  it('lets loopback clients through and refuses others with 403 DEV.LOOPBACK_ONLY', () => {
    const guard = new LoopbackOnlyGuard();
    expect(guard.canActivate(context(request('::1')))).toBe(true);
    let thrown: unknown;
    try {
      guard.canActivate(context(request('192.0.2.2')));
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ApiErrorException);
    expect((thrown as ApiErrorException).httpError).toMatchObject({ status: 403, body: { code: 'DEV.LOOPBACK_ONLY' } });
  });
});
