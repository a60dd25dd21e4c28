import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { freePort, TestProcess, waitUntil } from './test-processes.js';

/** A `caddy run` of its own: admin API on a free port, its data and config under `dir`. */
export class CaddyProcess {
  private constructor(
    readonly adminUrl: string,
    readonly process: TestProcess,
  ) {}

  static async start(dir: string): Promise<CaddyProcess> {
    const adminPort = await freePort();
    const adminUrl = `http://127.0.0.1:${adminPort}`;
    for (const sub of ['data', 'config', 'home']) mkdirSync(path.join(dir, sub), { recursive: true });
    const initial = path.join(dir, 'initial.json');
    writeFileSync(initial, JSON.stringify({ admin: { listen: `127.0.0.1:${adminPort}` } }));
    const process = new TestProcess('caddy', 'caddy', ['run', '--config', initial], {
      XDG_DATA_HOME: path.join(dir, 'data'),
      XDG_CONFIG_HOME: path.join(dir, 'config'),
      HOME: path.join(dir, 'home'),
    });
    try {
      await waitUntil('Caddy admin API', async () => (await fetch(`${adminUrl}/config/`)).ok, [process]);
    } catch (error) {
      await process.stop();
      throw error;
    }
    return new CaddyProcess(adminUrl, process);
  }

  stop(): Promise<void> {
    return this.process.stop();
  }
}

/** A throwaway CA and certificates made with openssl (the wildcard certificate Kiln loads from files). */
export function makeCertificate(dir: string, name: string, dnsNames: readonly string[]): { certFile: string; keyFile: string; caFile: string } {
  mkdirSync(dir, { recursive: true });
  const file = (suffix: string) => path.join(dir, `${name}-${suffix}`);
  const run = (args: string[]) => execFileSync('openssl', args, { stdio: ['ignore', 'ignore', 'pipe'] });
  run(['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '2', '-subj', `/CN=${name} test CA`, '-keyout', file('ca-key.pem'), '-out', file('ca.pem')]);
  run(['req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-subj', `/CN=${dnsNames[0]}`, '-keyout', file('key.pem'), '-out', file('csr.pem')]);
  writeFileSync(file('ext.cnf'), `subjectAltName=${dnsNames.map((n) => (/^[\d.]+$/.test(n) ? `IP:${n}` : `DNS:${n}`)).join(',')}\n`);
  run(['x509', '-req', '-in', file('csr.pem'), '-CA', file('ca.pem'), '-CAkey', file('ca-key.pem'), '-CAcreateserial', '-days', '2', '-extfile', file('ext.cnf'), '-out', file('cert.pem')]);
  return { certFile: file('cert.pem'), keyFile: file('key.pem'), caFile: file('ca.pem') };
}
