import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { caddyConfig, type CaddyEdgeOptions, SERVABLE_HOST_PATTERN, wildcardSubjectFor } from './caddy-edge.js';

const base: CaddyEdgeOptions = {
  adminUrl: 'http://127.0.0.1:2019',
  hostingRoot: '/var/lib/kiln/hosting',
  httpPort: 80,
  httpsPort: 443,
  askUrl: 'http://127.0.0.1:3000/api/hosting/tls-allowed',
};

type Any = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('caddyConfig', () => {
  it("keeps the admin API where it is, and asks Kiln's endpoint before any on-demand certificate", () => {
    const config = caddyConfig(base) as Any;
    expect(config.admin).toEqual({ listen: '127.0.0.1:2019' });
    expect(config.apps.tls.automation.on_demand).toEqual({ ask: base.askUrl });
    expect(config.apps.tls.automation.policies).toEqual([{ on_demand: true }]);
    expect(Object.values(config.apps.http.servers).map((s) => (s as Any).listen)).toEqual([[':80'], [':443']]);
    expect(JSON.stringify(config)).toContain('"root":"/var/lib/kiln/hosting/hosts/{http.request.host}"');
  });

  it('loads the wildcard certificate from files and never issues on demand for its subjects', () => {
    const config = caddyConfig({ ...base, wildcard: { subjects: ['*.kiln.app'], certFile: '/etc/kiln/wild.pem', keyFile: '/etc/kiln/wild.key' } }) as Any;
    expect(config.apps.tls.certificates.load_files).toEqual([{ certificate: '/etc/kiln/wild.pem', key: '/etc/kiln/wild.key', tags: ['kiln-wildcard'] }]);
    const [wildcardPolicy, onDemandPolicy] = config.apps.tls.automation.policies;
    expect(wildcardPolicy).toEqual({ subjects: ['*.kiln.app'], on_demand: false });
    expect(onDemandPolicy).toEqual({ on_demand: true });
    expect(config.apps.http.servers['kiln-https'].tls_connection_policies).toEqual([{ match: { sni: ['*.kiln.app'] }, certificate_selection: { any_tag: ['kiln-wildcard'] } }, {}]);
  });

  it('uses the configured ACME directory, email and CA root for every policy', () => {
    const acme = { directoryUrl: 'https://127.0.0.1:14000/dir', email: 'ops@kiln.test', caRootFile: '/tmp/pebble.pem' };
    const config = caddyConfig({ ...base, acme, wildcard: { subjects: ['*.kiln.app'], certFile: 'c', keyFile: 'k' } }) as Any;
    const issuer = { module: 'acme', ca: acme.directoryUrl, email: acme.email, trusted_roots_pem_files: [acme.caRootFile] };
    for (const policy of config.apps.tls.automation.policies) expect(policy.issuers).toEqual([issuer]);
  });

  it('redirects plain HTTP to HTTPS when asked, with the HTTPS port when it is not 443', () => {
    const config = caddyConfig({ ...base, httpsPort: 8443, redirectHttp: true }) as Any;
    expect(config.apps.http.servers['kiln-http'].routes).toEqual([
      { handle: [{ handler: 'static_response', status_code: 308, headers: { Location: ['https://{http.request.host}:8443{http.request.uri}'] } }] },
    ]);
  });

  it('refuses an admin URL it could not keep, a relative folder, bad ports and a bad ask URL', () => {
    expect(() => caddyConfig({ ...base, adminUrl: 'https://127.0.0.1:2019' })).toThrow(/CADDY_ADMIN_URL/);
    expect(() => caddyConfig({ ...base, adminUrl: 'http://127.0.0.1:2019/x' })).toThrow(/CADDY_ADMIN_URL/);
    expect(() => caddyConfig({ ...base, hostingRoot: '.data/hosting' })).toThrow(/absolute/);
    expect(() => caddyConfig({ ...base, httpsPort: 0 })).toThrow(/Not a port/);
    expect(() => caddyConfig({ ...base, askUrl: '127.0.0.1:3000/api/hosting/tls-allowed' })).toThrow(/TLS_ASK_URL/);
  });
});

describe('SERVABLE_HOST_PATTERN (which Host headers may name a folder)', () => {
  const servable = new RegExp(SERVABLE_HOST_PATTERN);
  const label = fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,20}[a-z0-9])?$/);

  it('accepts lower-case DNS names', () => {
    fc.assert(fc.property(fc.array(label, { minLength: 1, maxLength: 5 }), (labels) => servable.test(labels.join('.'))));
  });

  it('never accepts a name that could leave hosts/ or alias another folder', () => {
    const hostile = fc.oneof(
      fc.string().filter((s) => /[/\\:%\s]|\.\.|^\.|\.$|[A-Z]/.test(s)),
      fc.constantFrom('..', '.', '', 'a..b', '-a.b', 'a-.b', 'a/b', 'a\\b', 'a.b.', '.a', 'A.b', 'a b', 'a\u0000b', 'xn--a.b/..'),
    );
    fc.assert(fc.property(hostile, (host) => !servable.test(host)));
  });
});

describe('wildcardSubjectFor', () => {
  it("names the parent domain of Kiln's subdomains", () => {
    expect(wildcardSubjectFor('pantry.kiln.app')).toBe('*.kiln.app');
    expect(wildcardSubjectFor('Pantry.Apps.Kiln.App')).toBe('*.apps.kiln.app');
    expect(() => wildcardSubjectFor('kiln.app')).toThrow();
  });
});
