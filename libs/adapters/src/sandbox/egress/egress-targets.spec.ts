import { describe, expect, it } from '@jest/globals';
import { bypassesProxy, parseConnectTarget, registryFromEnv, targetKey, upstreamProxyFromEnv, urlTarget } from './egress-targets.js';

describe('egress targets', () => {
  it.each([
    ['registry.npmjs.org:443', { host: 'registry.npmjs.org', port: 443 }],
    ['Registry.NPMJS.org.:443', { host: 'registry.npmjs.org', port: 443 }],
    ['[2606:4700::6810:1]:443', { host: '2606:4700::6810:1', port: 443 }],
    ['registry.npmjs.org', null],
    ['registry.npmjs.org:0', null],
    ['registry.npmjs.org:65536', null],
    ['registry.npmjs.org:443/x', null],
    ['user@registry.npmjs.org:443', null],
    [':443', null],
  ])('parses the CONNECT target %j', (text, expected) => {
    expect(parseConnectTarget(text)).toEqual(expected);
  });

  it('keys IPv6 hosts in brackets, and takes default ports from the scheme', () => {
    expect(targetKey({ host: '::1', port: 443 })).toBe('[::1]:443');
    expect(urlTarget('https://registry.npmjs.org/')).toEqual({ protocol: 'https:', host: 'registry.npmjs.org', port: 443 });
    expect(urlTarget('http://[::1]:4873/mitt')).toEqual({ protocol: 'http:', host: '::1', port: 4873 });
    expect(urlTarget('ftp://registry.npmjs.org/')).toBeNull();
    expect(urlTarget('/mitt')).toBeNull();
  });

  it("reads npm's registry and the host's upstream proxy from the environment", () => {
    expect(registryFromEnv({})).toBe('https://registry.npmjs.org/');
    expect(registryFromEnv({ NPM_CONFIG_REGISTRY: 'https://npm.example/' })).toBe('https://npm.example/');
    expect(upstreamProxyFromEnv({})).toBeNull();
    expect(upstreamProxyFromEnv({ HTTPS_PROXY: ' http://proxy:3128 ' })).toBe('http://proxy:3128');
    expect(upstreamProxyFromEnv({ npm_config_https_proxy: 'http://a:1', HTTPS_PROXY: 'http://b:2' })).toBe('http://a:1');
  });

  it('honours NO_PROXY entries for the upstream proxy', () => {
    const registry = { host: 'registry.npmjs.org', port: 443 };
    expect(bypassesProxy(registry, [])).toBe(false);
    expect(bypassesProxy(registry, ['*'])).toBe(true);
    expect(bypassesProxy(registry, ['.npmjs.org'])).toBe(true);
    expect(bypassesProxy(registry, ['npmjs.org'])).toBe(true);
    expect(bypassesProxy(registry, ['registry.npmjs.org:443'])).toBe(true);
    expect(bypassesProxy(registry, ['registry.npmjs.org:8443'])).toBe(false);
    expect(bypassesProxy(registry, ['pmjs.org', 'example.com'])).toBe(false);
  });
});
