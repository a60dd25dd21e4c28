import { describe, expect, it } from '@jest/globals';
import { parseCustomDomain } from '@kiln/domain';
import { createPublishedUrls, ownHostsOf, parseHostingConfig, parsePublishedUrlTemplate, publishedFrameSource } from './published-urls.js';

const configOf = (env: Record<string, string>, port = 3000) => {
  const problems: string[] = [];
  const config = parseHostingConfig(env, port, (p) => problems.push(p));
  return { config, problems };
};

describe('hosting config', () => {
  it('defaults: sites at http://{slug}.apps.localhost:<port>, CNAME target apps.localhost, 127.0.0.1, system DNS', () => {
    expect(configOf({}, 4000)).toEqual({
      config: { publishedUrlTemplate: 'http://{slug}.apps.localhost:4000', targetCname: 'apps.localhost', targetAddresses: ['127.0.0.1'], dnsServers: [], edge: { kind: 'embedded' }, chromiumPath: '/usr/bin/chromium' },
      problems: [],
    });
  });

  it('reads a production set-up', () => {
    const { config, problems } = configOf({
      PUBLISHED_URL_TEMPLATE: 'https://{slug}.kiln.app',
      HOSTING_TARGET_CNAME: 'Sites.Kiln.App.',
      HOSTING_TARGET_ADDRESSES: '203.0.113.7, 2001:DB8::7',
      DNS_SERVERS: '1.1.1.1, 8.8.8.8:53, [2606:4700::1111]:53, 127.0.0.1:8053',
    });
    expect(problems).toEqual([]);
    expect(config).toEqual({
      publishedUrlTemplate: 'https://{slug}.kiln.app',
      targetCname: 'sites.kiln.app',
      targetAddresses: ['203.0.113.7', '2001:db8::7'],
      dnsServers: ['1.1.1.1', '8.8.8.8:53', '[2606:4700::1111]:53', '127.0.0.1:8053'],
      edge: { kind: 'embedded' },
      chromiumPath: '/usr/bin/chromium',
    });
  });

  it.each([
    [{ PUBLISHED_URL_TEMPLATE: 'http://apps.localhost' }, 'PUBLISHED_URL_TEMPLATE must contain {slug} exactly once'],
    [{ PUBLISHED_URL_TEMPLATE: 'http://x.{slug}.localhost' }, 'PUBLISHED_URL_TEMPLATE must start with {slug}'],
    [{ PUBLISHED_URL_TEMPLATE: 'ftp://{slug}.example.com' }, 'must be an http:// or https:// URL'],
    [{ PUBLISHED_URL_TEMPLATE: 'https://{slug}.example.com/app' }, 'must be an origin'],
    [{ PUBLISHED_URL_TEMPLATE: 'https://{slug}.com' }, 'parent domain of at least two labels'],
    [{ HOSTING_TARGET_ADDRESSES: '127.0.0.1, example.com' }, 'HOSTING_TARGET_ADDRESSES must be'],
    [{ HOSTING_TARGET_CNAME: '10.0.0.1' }, 'HOSTING_TARGET_CNAME must be'],
    [{ DNS_SERVERS: 'dns.google' }, 'DNS_SERVERS must be'],
    [{ DNS_SERVERS: '1.1.1.1:99999' }, 'DNS_SERVERS must be'],
  ])('reports %j', (env, problem) => {
    const { problems } = configOf(env);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain(problem);
  });

  it('parses the template shape', () => {
    expect(parsePublishedUrlTemplate('https://{slug}.sites.example.com/', 3000)).toEqual({
      ok: true,
      value: { template: 'https://{slug}.sites.example.com', protocol: 'https:', parent: 'sites.example.com', port: '' },
    });
  });
});

describe('PublishedUrls from config', () => {
  const dev = createPublishedUrls(configOf({}).config, ownHostsOf(['http://localhost:3000', 'http://{id}.preview.localhost:3000']));
  const prod = createPublishedUrls(
    configOf({ PUBLISHED_URL_TEMPLATE: 'https://{slug}.kiln.app', HOSTING_TARGET_CNAME: 'edge.kiln-dns.net', HOSTING_TARGET_ADDRESSES: '203.0.113.7' }).config,
    ownHostsOf(['https://api.kiln.dev', 'https://kiln.dev', 'https://{id}.preview.kiln.dev']),
  );

  it('builds hosts and URLs (the template’s scheme and port for every host)', () => {
    expect(dev.hostFor('pantry')).toBe('pantry.apps.localhost');
    expect(dev.urlFor('pantry.apps.localhost')).toBe('http://pantry.apps.localhost:3000');
    expect(dev.urlFor('Shop.Example.com')).toBe('http://shop.example.com:3000');
    expect(prod.urlFor(prod.hostFor('pantry'))).toBe('https://pantry.kiln.app');
    expect(prod.target).toEqual({ cname: 'edge.kiln-dns.net', addresses: ['203.0.113.7'] });
  });

  it('reads a slug back only from a one-label Kiln subdomain', () => {
    expect(dev.slugOf('Pantry.Apps.Localhost.')).toBe('pantry');
    expect(dev.slugOf('a.b.apps.localhost')).toBeNull();
    expect(dev.slugOf('apps.localhost')).toBeNull();
    expect(dev.slugOf('pantry.apps.localhost.evil.com')).toBeNull();
    expect(prod.slugOf('pantry.kiln.app')).toBe('pantry');
    expect(prod.slugOf('-x.kiln.app')).toBeNull();
  });

  it("knows Kiln's own hosts: the sites' parent, the CNAME target, the API, the web and the preview domains", () => {
    for (const host of ['kiln.app', 'pantry.kiln.app', 'edge.kiln-dns.net', 'api.kiln.dev', 'kiln.dev', 'x.preview.kiln.dev', 'www.kiln.dev']) {
      expect(prod.isKilnHost(host)).toBe(true);
      expect(parseCustomDomain(host, prod).ok).toBe(false);
    }
    for (const host of ['shop.example.com', 'kiln.app.example.com', 'notkiln.app']) expect(prod.isKilnHost(host)).toBe(false);
    expect(parseCustomDomain('shop.example.com', prod)).toEqual({ ok: true, value: 'shop.example.com' });
  });
});

describe('publishedFrameSource', () => {
  it('is every Kiln subdomain of the template, with its port', () => {
    expect(publishedFrameSource(configOf({}, 3000).config)).toBe('http://*.apps.localhost:3000');
    expect(publishedFrameSource(configOf({ PUBLISHED_URL_TEMPLATE: 'https://{slug}.kiln.app' }).config)).toBe('https://*.kiln.app');
  });
});
