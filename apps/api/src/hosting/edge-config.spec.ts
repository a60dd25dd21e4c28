import { describe, expect, it } from '@jest/globals';
import { parseEdgeConfig } from './edge-config.js';

function parse(env: Record<string, string>) {
  const problems: string[] = [];
  const edge = parseEdgeConfig(env, 3000, (p) => problems.push(p));
  return { edge, problems };
}

describe('HOSTING_EDGE and the Caddy variables', () => {
  it('defaults to the embedded edge with nothing else read', () => {
    expect(parse({ CADDY_HTTP_PORT: 'nonsense' })).toEqual({ edge: { kind: 'embedded' }, problems: [] });
  });

  it('caddy: defaults for a Caddy on this machine, the ask endpoint on the API port', () => {
    const { edge, problems } = parse({ HOSTING_EDGE: 'caddy' });
    expect(problems).toEqual([]);
    expect(edge).toEqual({
      kind: 'caddy',
      adminUrl: 'http://127.0.0.1:2019',
      httpPort: 80,
      httpsPort: 443,
      tlsHost: '127.0.0.1',
      redirectHttp: false,
      storageDir: null,
      askUrl: 'http://127.0.0.1:3000/api/hosting/tls-allowed',
      wildcard: null,
      acmeDirectoryUrl: null,
      acmeEmail: null,
      acmeCaRootFile: null,
      acmeIssuerRootFile: null,
    });
  });

  it('caddy: every variable read and checked', () => {
    const { edge, problems } = parse({
      HOSTING_EDGE: 'caddy',
      CADDY_ADMIN_URL: 'http://10.0.0.5:2019/',
      CADDY_HTTP_PORT: '8080',
      CADDY_HTTPS_PORT: '8443',
      CADDY_REDIRECT_HTTP: 'true',
      TLS_WILDCARD_CERT_FILE: '/etc/kiln/wild.pem',
      TLS_WILDCARD_KEY_FILE: '/etc/kiln/wild.key',
      ACME_DIRECTORY_URL: 'https://acme.example.com/dir',
      ACME_EMAIL: 'ops@example.com',
    });
    expect(problems).toEqual([]);
    expect(edge).toMatchObject({
      adminUrl: 'http://10.0.0.5:2019',
      httpPort: 8080,
      httpsPort: 8443,
      redirectHttp: true,
      wildcard: { certFile: '/etc/kiln/wild.pem', keyFile: '/etc/kiln/wild.key' },
      acmeDirectoryUrl: 'https://acme.example.com/dir',
      acmeEmail: 'ops@example.com',
    });
  });

  it('reports every bad value at once', () => {
    const { problems } = parse({
      HOSTING_EDGE: 'caddy',
      CADDY_ADMIN_URL: 'ftp://x',
      CADDY_HTTPS_PORT: '70000',
      CADDY_REDIRECT_HTTP: 'yes',
      TLS_WILDCARD_CERT_FILE: 'relative.pem',
      ACME_EMAIL: 'not-an-address',
    });
    expect(problems).toEqual([
      'TLS_WILDCARD_CERT_FILE must be an absolute path, got "relative.pem"',
      'TLS_WILDCARD_CERT_FILE and TLS_WILDCARD_KEY_FILE go together: set both or neither',
      'CADDY_REDIRECT_HTTP must be true or false, got "yes"',
      'ACME_EMAIL must be an email address, got "not-an-address"',
      'CADDY_ADMIN_URL must be an http:// or https:// URL, got "ftp://x"',
      'CADDY_HTTPS_PORT must be a port number (1-65535), got "70000"',
    ]);
  });

  it('an unknown edge is a problem', () => {
    expect(parse({ HOSTING_EDGE: 'nginx' }).problems).toEqual(['HOSTING_EDGE must be embedded or caddy, got "nginx"']);
  });
});
