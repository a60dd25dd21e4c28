import { promises as dns } from 'node:dns';
import { isIP } from 'node:net';
import { type DnsResolver, DnsUnavailable } from '@kiln/domain';

export interface NodeDnsResolverOptions {
  /** `host` or `host:port` (IPv6 as `[addr]:port`); empty: the system's resolvers (/etc/resolv.conf). */
  readonly servers?: readonly string[];
  /** c-ares' first timeout per try, doubled on each retry (1000 ms × 2 tries ≈ 4 s for a silent server). */
  readonly timeoutMs?: number;
  readonly tries?: number;
  /** A hard stop for one lookup, whatever c-ares does with several servers. */
  readonly deadlineMs?: number;
}

/** Answers that mean "there is no such record": the name or the type does not exist. */
const NO_RECORD = new Set(['ENODATA', 'ENOTFOUND', 'NOTFOUND', 'ENONAME', 'EBADNAME']);

/** Reasons that are safe to show (no addresses, no stack). */
const REASONS: Record<string, string> = {
  ETIMEOUT: 'the DNS server did not answer in time',
  ECONNREFUSED: 'the DNS server refused the connection',
  ESERVFAIL: 'the DNS server failed to answer (SERVFAIL)',
  EREFUSED: 'the DNS server refused the query',
  ECANCELLED: 'the lookup took too long',
};

/**
 * The DnsResolver port over Node's c-ares resolver (`dns.promises.Resolver`), reading from the
 * configured servers (DNS_SERVERS) rather than the process's, so verification sees what public
 * DNS says, and tests can point it at a fake server.
 */
export class NodeDnsResolver implements DnsResolver {
  private readonly options: Required<Omit<NodeDnsResolverOptions, 'servers'>>;
  private readonly servers: readonly string[];

  constructor(options: NodeDnsResolverOptions = {}) {
    this.servers = (options.servers ?? []).map(checkServer);
    this.options = { timeoutMs: options.timeoutMs ?? 1000, tries: options.tries ?? 2, deadlineMs: options.deadlineMs ?? 8000 };
  }

  async resolveTxt(name: string): Promise<readonly string[]> {
    const records = await this.lookup(name, (r, n) => r.resolveTxt(n));
    return records.map((chunks) => chunks.join(''));
  }

  async resolveCname(name: string): Promise<readonly string[]> {
    const targets = await this.lookup(name, (r, n) => r.resolveCname(n));
    return targets.map((t) => t.toLowerCase().replace(/\.$/, ''));
  }

  async resolveAddresses(name: string): Promise<readonly string[]> {
    const [v4, v6] = await Promise.all([this.lookup(name, (r, n) => r.resolve4(n)), this.lookup(name, (r, n) => r.resolve6(n))]);
    return [...v4, ...v6];
  }

  /** One resolver per lookup: `cancel()` on the deadline then only stops this lookup. */
  private async lookup<T>(name: string, query: (resolver: dns.Resolver, name: string) => Promise<T[]>): Promise<T[]> {
    const host = name.trim().toLowerCase().replace(/\.$/, '');
    if (host === '' || isIP(host) !== 0) return [];
    const resolver = new dns.Resolver({ timeout: this.options.timeoutMs, tries: this.options.tries });
    if (this.servers.length > 0) resolver.setServers([...this.servers]);
    const timer = setTimeout(() => resolver.cancel(), this.options.deadlineMs);
    try {
      return await query(resolver, host);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? '';
      if (NO_RECORD.has(code)) return [];
      throw new DnsUnavailable(REASONS[code] ?? `the lookup failed (${/^E[A-Z]+$/.test(code) ? code : 'unknown error'})`);
    } finally {
      clearTimeout(timer);
    }
  }
}

/** Parses DNS_SERVERS (`127.0.0.1:8053, 1.1.1.1`) into the servers Node accepts; rejects anything else. */
export function parseDnsServers(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')
    .map(checkServer);
}

function checkServer(server: string): string {
  const bracketed = /^\[([0-9a-fA-F:.]+)\](?::(\d{1,5}))?$/.exec(server);
  const plain = /^([0-9.]+|[0-9a-fA-F:]+)$/.exec(server);
  const withPort = /^([0-9.]+):(\d{1,5})$/.exec(server);
  const address = bracketed?.[1] ?? withPort?.[1] ?? plain?.[1];
  const port = bracketed?.[2] ?? withPort?.[2];
  if (address === undefined || isIP(address) === 0 || (port !== undefined && (Number(port) < 1 || Number(port) > 65535))) {
    throw new Error(`Not a DNS server address (an IP, optionally with :port): ${JSON.stringify(server)}`);
  }
  return server;
}
