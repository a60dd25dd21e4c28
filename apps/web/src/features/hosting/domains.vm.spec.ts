import 'reflect-metadata';
import { describe, expect, it } from '@jest/globals';
import { ApiError } from '../../app/ports';
import type { SiteStatusDto } from '../../api/hosting.api';
import { ManualTimers } from '../../testing/auth-fakes';
import type { BrowserEnvironment } from '../../app/ui-ports';
import { FakeClipboard, FakeToasts, RecordingLogger, RecordingSink, analyticsSettings, environment, flush } from '../../testing/ui-fakes';
import { AnalyticsService } from '../analytics/analytics.service';
import { FakeDatabasesApi } from '../../testing/databases-fakes';
import { ProjectDatabaseStore } from '../databases/project-database.store';
import { FakeHostingApi, FakeUpgrade, NOW, liveSite, paymentRequired, pendingDomain } from '../../testing/hosting-fakes';
import { PublishVm } from './publish.vm';

async function setup(site = liveSite(), env: BrowserEnvironment = environment()) {
  const api = new FakeHostingApi();
  api.site = site;
  const upgrade = new FakeUpgrade();
  const clipboard = new FakeClipboard();
  const toasts = new FakeToasts();
  // The real Analytics port over a recording sink: its sending rules (no events from localhost unless enabled) apply.
  const sink = new RecordingSink();
  const vm = new PublishVm(api, upgrade, clipboard, toasts, new ManualTimers(NOW), new RecordingLogger(), new AnalyticsService(sink, env, new RecordingLogger(), analyticsSettings()), new ProjectDatabaseStore(new FakeDatabasesApi(), new RecordingLogger()));
  vm.setProject('p1');
  await flush();
  return { api, upgrade, clipboard, toasts, sink, vm, domains: vm.domains };
}

describe('DomainsVm: adding', () => {
  it('adds what was typed (without scheme or path) and shows the records to create', async () => {
    const { api, domains } = await setup();
    domains.setInput('  https://WWW.Shop.com/about ');
    await domains.add();
    expect(api.calls).toContain('addDomain p1 www.shop.com');
    expect(domains.input).toBe('');
    expect(domains.rows).toEqual([
      {
        domain: 'www.shop.com',
        statusLabel: 'Waiting for DNS',
        tone: 'warning',
        failureReason: null,
        records: [
          { type: 'TXT', name: '_kiln-challenge.www.shop.com', value: 'kiln-verify=tok123' },
          { type: 'CNAME', name: 'www.shop.com', value: 'edge.apps.kiln.test' },
        ],
        expectedTarget: 'edge.apps.kiln.test',
        url: null,
        verifying: false,
        removing: false,
        confirmingRemove: false,
        message: null,
      },
    ]);
  });

  it('takes the records beside the domain when the domain carries none', async () => {
    const { api, domains } = await setup();
    const bare = pendingDomain('shop.com', { records: [] });
    api.addDomain = async () => ({ domain: bare, records: pendingDomain('shop.com').records });
    domains.setInput('shop.com');
    await domains.add();
    expect(domains.rows[0]?.records).toHaveLength(2);
  });

  it('asks for a domain when nothing was typed, and sends nothing', async () => {
    const { api, domains } = await setup();
    domains.setInput('   ');
    await domains.add();
    expect(domains.addError).toBe('Enter a domain, like www.example.com.');
    expect(api.calls.filter((c) => c.startsWith('addDomain'))).toEqual([]);
    domains.setInput('x');
    expect(domains.addError).toBeNull();
  });

  it.each([
    [new ApiError('Enter a domain name, not an IP address', 400, 'HOSTING.INVALID_DOMAIN', null), 'Enter a domain name, not an IP address'],
    [new ApiError('This domain is already connected to another project', 409, 'HOSTING.DOMAIN_TAKEN', null), 'This domain is already connected to another project'],
  ])('shows a refusal (%#) by the input and keeps what was typed', async (error, message) => {
    const { api, domains, upgrade } = await setup();
    api.fail('addDomain', error);
    domains.setInput('1.2.3.4');
    await domains.add();
    expect(domains.addError).toBe(message);
    expect(domains.input).toBe('1.2.3.4');
    expect(domains.rows).toEqual([]);
    expect(upgrade.opened).toEqual([]);
  });

  it('a plan without domain connections (402) opens the upgrade dialog', async () => {
    const { api, domains, upgrade } = await setup();
    api.fail('addDomain', paymentRequired());
    domains.setInput('www.shop.com');
    await domains.add();
    expect(upgrade.opened).toEqual(['published']);
    expect(domains.addError).toBeNull();
  });
});

describe('DomainsVm: verifying', () => {
  it('checks with the CNAME value as the expected target and says which record is missing', async () => {
    const { api, domains } = await setup(liveSite({ domains: [pendingDomain()] }));
    api.dnsReply = (domain) => ({ verified: false, txt_found: true, target_found: false, domain });
    await domains.verify('www.shop.com');
    expect(api.calls).toContain('verifyDomain www.shop.com edge.apps.kiln.test');
    expect(domains.rows[0]?.message).toEqual({
      tone: 'destructive',
      text: 'www.shop.com does not point to edge.apps.kiln.test yet. DNS changes can take a while to reach everyone; try again in a few minutes.',
    });
    api.dnsReply = (domain) => ({ verified: false, txt_found: false, target_found: true, domain });
    await domains.verify('www.shop.com');
    expect(domains.rows[0]?.message?.text).toMatch(/^The TXT record _kiln-challenge\.www\.shop\.com was not found\./);
  });

  it('an apex domain is checked against its A record', async () => {
    const apex = pendingDomain('shop.com', {
      records: [
        { type: 'TXT', name: '_kiln-challenge.shop.com', value: 'kiln-verify=t' },
        { type: 'A', name: 'shop.com', value: '203.0.113.7' },
      ],
    });
    const { api, domains } = await setup(liveSite({ domains: [apex] }));
    await domains.verify('shop.com');
    expect(api.calls).toContain('verifyDomain shop.com 203.0.113.7');
  });

  it('a verified domain shows its new status and a link once active', async () => {
    const { api, domains, toasts } = await setup(liveSite({ domains: [pendingDomain()] }));
    api.dnsReply = (domain) => ({ verified: true, txt_found: true, target_found: true, domain: { ...domain, status: 'active', url: 'https://www.shop.com' } });
    api.hold('verifyDomain');
    const verifying = domains.verify('www.shop.com');
    await flush();
    expect(domains.rows[0]?.verifying).toBe(true);
    api.release('verifyDomain');
    await verifying;
    expect(domains.rows[0]).toMatchObject({ statusLabel: 'Active', tone: 'success', url: 'https://www.shop.com/', verifying: false, message: { tone: 'info', text: 'Both records were found.' } });
    expect(toasts.shown).toEqual([{ title: 'Domain verified', description: 'www.shop.com is active.', variant: 'success' }]);
  });

  it('no DNS resolver (503) is said under the domain', async () => {
    const { api, domains } = await setup(liveSite({ domains: [pendingDomain()] }));
    api.fail('verifyDomain', new ApiError('DNS could not be checked right now. Please try again.', 503, 'HOSTING.DNS_UNAVAILABLE', null));
    await domains.verify('www.shop.com');
    expect(domains.rows[0]?.message).toEqual({ tone: 'destructive', text: 'DNS could not be checked right now. Please try again.' });
    expect(domains.rows[0]?.statusLabel).toBe('Waiting for DNS');
  });

  it('a failed domain shows its reason', async () => {
    const { domains } = await setup(liveSite({ domains: [pendingDomain('www.shop.com', { status: 'failed', failure_reason: 'The certificate authority refused the domain' })] }));
    expect(domains.rows[0]).toMatchObject({ statusLabel: 'Failed', tone: 'destructive', failureReason: 'The certificate authority refused the domain' });
  });

  it('a domain without an address record cannot be verified, and nothing is sent', async () => {
    const { api, domains } = await setup(liveSite({ domains: [pendingDomain('www.shop.com', { records: [{ type: 'TXT', name: '_kiln-challenge.www.shop.com', value: 't' }] })] }));
    await domains.verify('www.shop.com');
    expect(api.calls.some((c) => c.startsWith('verifyDomain'))).toBe(false);
    expect(domains.rows[0]?.message?.tone).toBe('destructive');
  });
});

describe('DomainsVm: removing and copying', () => {
  it('removes after confirmation; the list is the status the API answers', async () => {
    const { api, domains, toasts } = await setup(liveSite({ domains: [pendingDomain(), pendingDomain('shop.org')] }));
    domains.askRemove('www.shop.com');
    expect(domains.rows.map((r) => r.confirmingRemove)).toEqual([true, false]);
    await domains.confirmRemove();
    expect(api.calls).toContain('removeDomain p1 www.shop.com');
    expect(domains.rows.map((r) => r.domain)).toEqual(['shop.org']);
    expect(toasts.shown).toEqual([{ title: 'Domain removed', description: 'www.shop.com no longer serves your app.', variant: 'success' }]);
  });

  it('a failed removal keeps the domain and says why', async () => {
    const { api, domains } = await setup(liveSite({ domains: [pendingDomain()] }));
    api.fail('removeDomain', new ApiError('Request failed', 503, null, null));
    domains.askRemove('www.shop.com');
    await domains.confirmRemove();
    expect(domains.rows[0]).toMatchObject({ domain: 'www.shop.com', removing: false, confirmingRemove: false, message: { tone: 'destructive', text: 'Request failed' } });
  });

  it('a domain the server no longer has leaves the list', async () => {
    const { api, domains } = await setup(liveSite({ domains: [pendingDomain()] }));
    api.fail('removeDomain', new ApiError('Domain not found', 404, 'HOSTING.DOMAIN_NOT_FOUND', null));
    domains.askRemove('www.shop.com');
    await domains.confirmRemove();
    expect(domains.rows).toEqual([]);
  });

  it('copies a record value with a toast', async () => {
    const { clipboard, domains, toasts } = await setup(liveSite({ domains: [pendingDomain()] }));
    await domains.copy('kiln-verify=tok123', 'Value');
    expect(clipboard.written).toEqual(['kiln-verify=tok123']);
    expect(toasts.shown).toEqual([{ title: 'Value copied', variant: 'success' }]);
  });

  it('adding to a project never published keeps a list of its own', async () => {
    const { api, domains, vm } = await setup();
    vm.site = null;
    domains.setInput('www.shop.com');
    await domains.add();
    expect(api.calls).toContain('addDomain p1 www.shop.com');
    const site = (): SiteStatusDto | null => vm.site;
    expect(site()?.status).toBe('never_published');
    expect(domains.rows.map((r) => r.domain)).toEqual(['www.shop.com']);
  });
});

describe('DomainsVm: analytics (SPEC §7 "Domain Connected" / "Domain Removed")', () => {
  const custom = (name: string, properties: Record<string, unknown>) => ({ kind: 'custom', name, properties });

  it('tracks a successful add with the domain as the API stored it, and a successful removal', async () => {
    const { domains, sink } = await setup();
    domains.setInput(' https://WWW.Shop.com/ ');
    await domains.add();
    await flush();
    expect(sink.events).toEqual([custom('Domain Connected', { project_id: 'p1', domain: 'www.shop.com' })]);
    domains.askRemove('www.shop.com');
    await domains.confirmRemove();
    await flush();
    expect(sink.events).toEqual([custom('Domain Connected', { project_id: 'p1', domain: 'www.shop.com' }), custom('Domain Removed', { project_id: 'p1', domain: 'www.shop.com' })]);
  });

  it('a refused or failed add, a 402, an empty input and a failed removal send nothing', async () => {
    const { api, domains, sink } = await setup(liveSite({ domains: [pendingDomain('shop.org')] }));
    domains.setInput('   ');
    await domains.add();
    for (const error of [new ApiError('Invalid', 400, 'HOSTING.INVALID_DOMAIN', null), paymentRequired(), new ApiError('Request failed', 503, null, null)]) {
      api.fail('addDomain', error);
      domains.setInput('www.shop.com');
      await domains.add();
    }
    api.fail('removeDomain', new ApiError('Request failed', 503, null, null));
    domains.askRemove('shop.org');
    await domains.confirmRemove();
    // Already gone on the server: the row leaves, but nothing was removed now.
    api.fail('removeDomain', new ApiError('Domain not found', 404, 'HOSTING.DOMAIN_NOT_FOUND', null));
    domains.askRemove('shop.org');
    await domains.confirmRemove();
    await flush();
    expect(api.calls.filter((c) => c.startsWith('addDomain') || c.startsWith('removeDomain'))).toHaveLength(5);
    expect(sink.events).toEqual([]);
  });

  it('sends nothing where analytics is off (localhost without VITE_ANALYTICS_ON_LOCALHOST), though the domain is added and removed', async () => {
    const { api, domains, sink } = await setup(liveSite(), environment({ hostname: 'localhost' }));
    domains.setInput('www.shop.com');
    await domains.add();
    domains.askRemove('www.shop.com');
    await domains.confirmRemove();
    await flush();
    expect(api.calls).toEqual(expect.arrayContaining(['addDomain p1 www.shop.com', 'removeDomain p1 www.shop.com']));
    expect(sink.events).toEqual([]);
  });
});
