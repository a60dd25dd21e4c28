import type { DnsRecordsControl } from '@kiln/domain/contracts';
import { freePort, TestProcess, waitUntil } from './test-processes.js';

/**
 * Debian's `pebble-challtestsrv` as a real DNS server (UDP and TCP) whose records a test sets
 * through its management API. Its default answers (127.0.0.1 / ::1 for any A / AAAA query) are
 * cleared, so a name with no record really has none.
 */
export class FakeDnsServer implements DnsRecordsControl {
  private constructor(
    readonly dnsPort: number,
    private readonly managementUrl: string,
    private readonly process: TestProcess,
  ) {}

  static async start(): Promise<FakeDnsServer> {
    const dnsPort = await freePort();
    const managementPort = await freePort();
    const process = new TestProcess('pebble-challtestsrv', 'pebble-challtestsrv', [
      '-dns01',
      `127.0.0.1:${dnsPort}`,
      '-management',
      `127.0.0.1:${managementPort}`,
      '-http01',
      '',
      '-https01',
      '',
      '-tlsalpn01',
      '',
    ]);
    const server = new FakeDnsServer(dnsPort, `http://127.0.0.1:${managementPort}`, process);
    try {
      await waitUntil('pebble-challtestsrv', () => server.post('set-default-ipv4', { ip: '' }).then(() => true), [process]);
      await server.post('set-default-ipv6', { ip: '' });
    } catch (error) {
      await process.stop();
      throw error;
    }
    return server;
  }

  /** `127.0.0.1:<port>`, as DNS_SERVERS takes it. */
  get address(): string {
    return `127.0.0.1:${this.dnsPort}`;
  }

  async setTxt(name: string, ...values: string[]): Promise<void> {
    await this.post('clear-txt', { host: fqdn(name) });
    for (const value of values) await this.post('set-txt', { host: fqdn(name), value });
  }

  async setCname(name: string, target: string): Promise<void> {
    await this.post('set-cname', { host: fqdn(name), target: `${target.replace(/\.$/, '')}.` });
  }

  async setA(name: string, ...addresses: string[]): Promise<void> {
    await this.post('clear-a', { host: fqdn(name) });
    await this.post('add-a', { host: fqdn(name), addresses });
  }

  async setAaaa(name: string, ...addresses: string[]): Promise<void> {
    await this.post('clear-aaaa', { host: fqdn(name) });
    await this.post('add-aaaa', { host: fqdn(name), addresses });
  }

  /** Every query for the name answers SERVFAIL. */
  async setServfail(name: string): Promise<void> {
    await this.post('set-servfail', { host: fqdn(name) });
  }

  async stop(): Promise<void> {
    await this.process.stop();
  }

  private async post(path: string, body: unknown): Promise<void> {
    const response = await fetch(`${this.managementUrl}/${path}`, { method: 'POST', body: JSON.stringify(body), signal: AbortSignal.timeout(5000) });
    if (!response.ok) throw new Error(`pebble-challtestsrv /${path} answered ${response.status}: ${await response.text()}`);
  }
}

/** The management API stores names as given and matches queries' fully qualified names. */
const fqdn = (name: string): string => `${name.toLowerCase().replace(/\.$/, '')}.`;
