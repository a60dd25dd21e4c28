import { describe, expect, it } from '@jest/globals';
import { refusedAddressKind } from './egress-addresses.js';

describe('egress addresses', () => {
  it.each([
    ['104.16.0.1', null],
    ['203.0.113.80', null],
    ['2606:4700::6810:1', null],
    ['127.0.0.1', 'loopback'],
    ['127.9.9.9', 'loopback'],
    ['::1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['10.0.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['172.32.0.1', null],
    ['192.168.1.1', 'private'],
    ['100.100.100.200', 'private'],
    ['fc00::1', 'private'],
    ['fdff::1', 'private'],
    ['::ffff:10.0.0.1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['fe80::1', 'link-local'],
    ['224.0.0.251', 'multicast'],
    ['ff02::1', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['::7f00:1', 'reserved'],
    ['registry.npmjs.org', 'not-an-ip'],
  ])('%s is %s', (address, kind) => {
    expect(refusedAddressKind(address)).toBe(kind);
  });

  it('lets loopback through only when tests ask for it', () => {
    expect(refusedAddressKind('127.0.0.1', { allowLoopback: true })).toBeNull();
    expect(refusedAddressKind('::1', { allowLoopback: true })).toBeNull();
    expect(refusedAddressKind('10.0.0.1', { allowLoopback: true })).toBe('private');
  });
});
