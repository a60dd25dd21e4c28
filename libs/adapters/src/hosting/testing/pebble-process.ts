import { readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import path from 'node:path';
import { makeCertificate } from './caddy-process.js';
import { freePort, TestProcess, waitUntil } from './test-processes.js';

/**
 * Debian's Pebble, a real ACME CA for tests: it validates challenges for real (HTTP-01 on
 * `httpPort`, TLS-ALPN-01 on `tlsPort`, both Caddy's), resolving names through `dnsServer`.
 */
export class PebbleProcess {
  private constructor(
    readonly directoryUrl: string,
    /** The CA of Pebble's own HTTPS listener: what Caddy trusts to talk ACME (ACME_CA_ROOT_FILE). */
    readonly listenerCaFile: string,
    /** Pebble's issuing root, made fresh on each start: what clients trust for the certificates it issues. */
    readonly issuerRoot: string,
    readonly process: TestProcess,
  ) {}

  static async start(options: { readonly dir: string; readonly dnsServer: string; readonly httpPort: number; readonly tlsPort: number }): Promise<PebbleProcess> {
    const [acmePort, managementPort] = [await freePort(), await freePort()];
    const listener = makeCertificate(options.dir, 'pebble-listener', ['localhost', '127.0.0.1']);
    const config = path.join(options.dir, 'pebble-config.json');
    writeFileSync(
      config,
      JSON.stringify({
        pebble: {
          listenAddress: `127.0.0.1:${acmePort}`,
          managementListenAddress: `127.0.0.1:${managementPort}`,
          certificate: listener.certFile,
          privateKey: listener.keyFile,
          httpPort: options.httpPort,
          tlsPort: options.tlsPort,
          ocspResponderURL: '',
          externalAccountBindingRequired: false,
        },
      }),
    );
    // No random sleeps before validating, real validation, and no nonces rejected for practice.
    const env = { PEBBLE_VA_NOSLEEP: '1', PEBBLE_VA_ALWAYS_VALID: '0', PEBBLE_WFE_NONCEREJECT: '0' };
    const process = new TestProcess('pebble', 'pebble', ['-config', config, '-dnsserver', options.dnsServer], env);
    const ca = readFileSync(listener.caFile, 'utf8');
    const directoryUrl = `https://127.0.0.1:${acmePort}/dir`;
    try {
      await waitUntil('Pebble', async () => (await httpsText(directoryUrl, ca)).includes('newOrder'), [process]);
      const issuerRoot = await httpsText(`https://127.0.0.1:${managementPort}/roots/0`, ca);
      if (!issuerRoot.includes('BEGIN CERTIFICATE')) throw new Error(`Pebble's root is not a certificate: ${issuerRoot.slice(0, 200)}`);
      return new PebbleProcess(directoryUrl, listener.caFile, issuerRoot, process);
    } catch (error) {
      await process.stop();
      throw error;
    }
  }

  stop(): Promise<void> {
    return this.process.stop();
  }
}

function httpsText(url: string, ca: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request(url, { ca, timeout: 5000, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => (res.statusCode === 200 ? resolve(Buffer.concat(chunks).toString('utf8')) : reject(new Error(`${url} answered ${res.statusCode}`))));
    });
    req.on('timeout', () => req.destroy(new Error(`${url} timed out`)));
    req.on('error', reject);
    req.end();
  });
}
