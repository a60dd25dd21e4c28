import { execFile } from 'node:child_process';

export const OPENSSL_PATH = '/usr/bin/openssl';

/**
 * A throwaway self-signed certificate for the capture proxy's `https://` answers. Trust in it
 * means nothing: the jailed browser can reach no one but the proxy, which answers only the site
 * being captured, so the browser is told to accept any certificate (ignoreHTTPSErrors). Made once
 * per screenshotter with OpenSSL's command (Node cannot issue certificates itself).
 */
export function captureCertificate(opensslPath = OPENSSL_PATH): Promise<{ cert: string; key: string }> {
  const args = ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', '-', '-out', '-', '-days', '3650', '-subj', '/CN=kiln-screenshot'];
  return new Promise((resolve, reject) => {
    execFile(opensslPath, args, { timeout: 10_000, env: { PATH: '/usr/bin:/bin' } }, (error, stdout) => {
      const key = /-----BEGIN PRIVATE KEY-----[\s\S]+?-----END PRIVATE KEY-----\n?/.exec(stdout)?.[0];
      const cert = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----\n?/.exec(stdout)?.[0];
      if (error !== null || key === undefined || cert === undefined) reject(new Error(`Cannot make the capture certificate with ${opensslPath}: ${error?.message ?? 'no PEM output'}`));
      else resolve({ cert, key });
    });
  });
}
