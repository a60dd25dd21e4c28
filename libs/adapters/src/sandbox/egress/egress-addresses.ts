import { BlockList, isIP } from 'node:net';

/** Why an address may not be connected to: it is on this machine or on a network behind it. */
export type RefusedAddressKind = 'loopback' | 'private' | 'link-local' | 'unspecified' | 'multicast' | 'reserved' | 'not-an-ip';

function blockList(entries: readonly (readonly [string, number])[]): BlockList {
  const list = new BlockList();
  for (const [network, prefix] of entries) list.addSubnet(network, prefix, isIP(network) === 6 ? 'ipv6' : 'ipv4');
  return list;
}

// Node's BlockList also matches IPv4-mapped IPv6 addresses (::ffff:127.0.0.1) against IPv4 rules.
const KINDS: readonly (readonly [RefusedAddressKind, BlockList])[] = [
  ['loopback', blockList([['127.0.0.0', 8], ['::1', 128]])],
  ['unspecified', blockList([['0.0.0.0', 8], ['::', 128]])],
  // 100.64/10 (carrier-grade NAT) holds some clouds' metadata and internal services.
  ['private', blockList([['10.0.0.0', 8], ['172.16.0.0', 12], ['192.168.0.0', 16], ['100.64.0.0', 10], ['fc00::', 7]])],
  // 169.254.169.254 is the cloud metadata service; fec0::/10 is the deprecated site-local range.
  ['link-local', blockList([['169.254.0.0', 16], ['fe80::', 10], ['fec0::', 10]])],
  ['multicast', blockList([['224.0.0.0', 4], ['ff00::', 8]])],
  // 240/4 (with the broadcast address) and IPv4-compatible IPv6 (::a.b.c.d, deprecated).
  ['reserved', blockList([['240.0.0.0', 4], ['::', 96]])],
];

/**
 * Why the registry egress proxy must not connect to `address`, or null when it may: loopback
 * (only when `allowLoopback`, for tests with a local fake registry), private, link-local,
 * unspecified, multicast and reserved addresses are the host's and its networks', never a registry's.
 */
export function refusedAddressKind(address: string, { allowLoopback = false } = {}): RefusedAddressKind | null {
  const family = isIP(address);
  if (family === 0) return 'not-an-ip';
  const type = family === 6 ? 'ipv6' : 'ipv4';
  for (const [kind, list] of KINDS) {
    if (!list.check(address, type)) continue;
    return kind === 'loopback' && allowLoopback ? null : kind;
  }
  return null;
}
