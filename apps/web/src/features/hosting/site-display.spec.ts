import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { displayUrl, formatBytes, formatElapsed, normaliseDomainInput, safeHttpUrl, safeImageUrl, shortCommit, targetRecord, withVersion } from './site-display';

describe('site display helpers', () => {
  it('lets only http(s) addresses into links and frames', () => {
    expect(safeHttpUrl('http://chores.apps.localhost:3000')).toBe('http://chores.apps.localhost:3000/');
    expect(safeHttpUrl('https://www.shop.com/x')).toBe('https://www.shop.com/x');
    for (const bad of ['javascript:alert(1)', 'JaVaScRiPt:alert(1)', 'data:text/html,<script>1</script>', 'file:///etc/passwd', '/relative', '', null, undefined]) {
      expect(safeHttpUrl(bad)).toBeNull();
    }
  });

  it("lets images come from Kiln's own paths or http(s), never another host through '//'", () => {
    expect(safeImageUrl('/api/hosting/sites/chores/screenshot.png')).toBe('/api/hosting/sites/chores/screenshot.png');
    expect(safeImageUrl('https://cdn.example/x.png')).toBe('https://cdn.example/x.png');
    expect(safeImageUrl('//evil.example/x.png')).toBeNull();
    expect(safeImageUrl('/\\evil.example/x.png')).toBeNull();
    expect(safeImageUrl('javascript:1')).toBeNull();
    expect(safeImageUrl(null)).toBeNull();
  });

  it('writes sizes, commits, elapsed times and addresses for people', () => {
    expect(formatBytes(812)).toBe('812 B');
    expect(formatBytes(14.2 * 1024)).toBe('14 KB');
    expect(formatBytes(3.14 * 1024 * 1024)).toBe('3.1 MB');
    expect(formatBytes(5 * 1024 ** 3)).toBe('5.0 GB');
    expect(formatBytes(-1)).toBe('—');
    expect(shortCommit('0123456789abcdef')).toBe('0123456');
    expect(formatElapsed(8_900)).toBe('8 s');
    expect(formatElapsed(65_000)).toBe('1 min 05 s');
    expect(displayUrl('http://chores.apps.localhost:3000/')).toBe('chores.apps.localhost:3000');
    expect(withVersion('/a.png', '2026-01-01T00:00:00Z')).toBe('/a.png?v=2026-01-01T00%3A00%3A00Z');
    expect(withVersion('/a.png?x=1', 'v')).toBe('/a.png?x=1&v=v');
    expect(withVersion('/a.png', null)).toBe('/a.png');
  });

  it('finds the record Verify checks: the CNAME, else A/AAAA, never the TXT', () => {
    expect(targetRecord([{ type: 'TXT', name: 't', value: 'x' }, { type: 'CNAME', name: 'w', value: 'edge' }])?.value).toBe('edge');
    expect(targetRecord([{ type: 'AAAA', name: 'a', value: '2001:db8::1' }])?.value).toBe('2001:db8::1');
    expect(targetRecord([{ type: 'TXT', name: 't', value: 'x' }])).toBeNull();
  });

  it('turns what a person pastes into a bare domain', () => {
    expect(normaliseDomainInput(' https://WWW.Shop.com:443/path?q#h ')).toBe('www.shop.com');
    expect(normaliseDomainInput('shop.com..')).toBe('shop.com');
    expect(normaliseDomainInput('shop.com:8080.')).toBe('shop.com');
    expect(normaliseDomainInput('')).toBe('');
  });

  it('normalising twice changes nothing more', () => {
    fc.assert(
      // Mostly the characters that matter here, so dots, ports and schemes come up often.
      fc.property(fc.string({ unit: fc.constantFrom('a', 'B', '1', '.', ':', '/', '?', '#', ' ', 'h', 't', 'p', 's') }), (input) => {
        const once = normaliseDomainInput(input);
        expect(normaliseDomainInput(once)).toBe(once);
      }),
      { numRuns: 2000 },
    );
  });
});
