import { makeAutoObservable, runInAction } from 'mobx';
import { type Analytics, ApiError, type Toasts } from '../../app/ports';
import { errorText } from '../../app/error-text';
import type { DnsCheckDto, DnsRecordDto, DomainDto, HostingApi, SiteStatusDto } from '../../api/hosting.api';
import type { UpgradeDialogStore } from '../billing/upgrade-dialog.store';
import { DOMAIN_STATUS, type StatusTone, normaliseDomainInput, safeHttpUrl, targetRecord } from './site-display';

/** What the Domains tab needs from the Publish dialog that owns it. */
export interface DomainsHost {
  readonly projectId: string;
  readonly site: SiteStatusDto | null;
  /** A whole new status from the API (after a removal). */
  setSite(site: SiteStatusDto): void;
  /** One domain added or changed. */
  putDomain(domain: DomainDto): void;
  copy(text: string, what: string): Promise<void>;
}

export interface DomainRow {
  readonly domain: string;
  readonly statusLabel: string;
  readonly tone: StatusTone;
  readonly failureReason: string | null;
  readonly records: readonly DnsRecordDto[];
  /** The CNAME/A/AAAA value Verify checks for; null when the API gave no such record. */
  readonly expectedTarget: string | null;
  /** https://… once the domain serves the site. */
  readonly url: string | null;
  readonly verifying: boolean;
  readonly removing: boolean;
  readonly confirmingRemove: boolean;
  /** The last Verify's findings, or the last action's error, shown under the domain. */
  readonly message: { readonly tone: 'info' | 'destructive'; readonly text: string } | null;
}

const EMPTY_DOMAIN = 'Enter a domain, like www.example.com.';
const PROPAGATION_HINT = 'DNS changes can take a while to reach everyone; try again in a few minutes.';

/** What a Verify found, in words: which record is missing. */
export function dnsCheckMessage(check: DnsCheckDto, records: readonly DnsRecordDto[]): string {
  if (check.verified) return 'Both records were found.';
  const missing: string[] = [];
  const txt = records.find((r) => r.type === 'TXT');
  const target = targetRecord(records);
  if (!check.txt_found) missing.push(txt === undefined ? 'The TXT record was not found.' : `The TXT record ${txt.name} was not found.`);
  if (!check.target_found) missing.push(target === null ? 'The address record was not found.' : `${target.name} does not point to ${target.value} yet.`);
  if (missing.length === 0) missing.push('The domain is not verified yet.');
  return `${missing.join(' ')} ${PROPAGATION_HINT}`;
}

/**
 * The Publish dialog's Domains tab: add a custom domain, show the DNS records to create, verify
 * them (POST /api/fly/verify-dns with the CNAME/A value as the expected target), remove. A 402
 * opens the upgrade dialog for the `published` limit; 400/409 messages stay by the input. A
 * successful add or removal is tracked ("Domain Connected" / "Domain Removed", SPEC §7).
 */
export class DomainsVm {
  input = '';
  adding = false;
  addError: string | null = null;
  private working = new Map<string, 'verify' | 'remove'>();
  private messages = new Map<string, { tone: 'info' | 'destructive'; text: string }>();
  confirmingRemove: string | null = null;

  constructor(
    private readonly host: DomainsHost,
    private readonly api: HostingApi,
    private readonly upgrade: Pick<UpgradeDialogStore, 'openFor'>,
    private readonly toasts: Toasts,
    private readonly analytics: Pick<Analytics, 'track'>,
  ) {
    makeAutoObservable<DomainsVm, 'host' | 'api' | 'upgrade' | 'toasts' | 'analytics'>(
      this,
      { host: false, api: false, upgrade: false, toasts: false, analytics: false },
      { autoBind: true },
    );
  }

  get rows(): DomainRow[] {
    return (this.host.site?.domains ?? []).map((d) => {
      const status = DOMAIN_STATUS[d.status] ?? { label: d.status, tone: 'warning' as const };
      const work = this.working.get(d.domain);
      return {
        domain: d.domain,
        statusLabel: status.label,
        tone: status.tone,
        failureReason: d.status === 'failed' ? (d.failure_reason ?? 'No reason was given.') : null,
        records: d.records,
        expectedTarget: targetRecord(d.records)?.value ?? null,
        url: d.status === 'active' ? safeHttpUrl(d.url) : null,
        verifying: work === 'verify',
        removing: work === 'remove',
        confirmingRemove: this.confirmingRemove === d.domain,
        message: this.messages.get(d.domain) ?? null,
      };
    });
  }

  setInput(value: string): void {
    this.input = value;
    this.addError = null;
  }

  async add(): Promise<void> {
    if (this.adding) return;
    const domain = normaliseDomainInput(this.input);
    if (domain === '') {
      this.addError = EMPTY_DOMAIN;
      return;
    }
    this.adding = true;
    this.addError = null;
    try {
      const added = await this.api.addDomain(this.host.projectId, domain);
      runInAction(() => {
        // The records come with the domain and beside it; either is the list to create.
        this.host.putDomain(added.domain.records.length > 0 ? added.domain : { ...added.domain, records: added.records });
        this.input = '';
      });
      // SPEC §7; the Analytics port applies the sending rules (never from localhost unless enabled).
      this.analytics.track('Domain Connected', { project_id: this.host.projectId, domain: added.domain.domain });
    } catch (error) {
      runInAction(() => {
        if (this.upgrade.openFor(error, 'published')) return;
        this.addError = errorText(error, 'The domain could not be added.');
      });
    } finally {
      runInAction(() => (this.adding = false));
    }
  }

  async verify(domain: string): Promise<void> {
    const row = this.rows.find((r) => r.domain === domain);
    if (row === undefined || this.working.has(domain)) return;
    if (row.expectedTarget === null) {
      this.messages.set(domain, { tone: 'destructive', text: 'There is no address record to check for this domain. Remove it and add it again.' });
      return;
    }
    this.working.set(domain, 'verify');
    this.messages.delete(domain);
    try {
      const check = await this.api.verifyDomain(domain, row.expectedTarget);
      runInAction(() => {
        this.host.putDomain(check.domain.records.length > 0 ? check.domain : { ...check.domain, records: row.records });
        this.messages.set(domain, { tone: check.verified ? 'info' : 'destructive', text: dnsCheckMessage(check, row.records) });
      });
      if (check.verified) this.toasts.show({ title: 'Domain verified', description: `${domain} is ${DOMAIN_STATUS[check.domain.status]?.label.toLowerCase() ?? 'verified'}.`, variant: 'success' });
    } catch (error) {
      runInAction(() => {
        if (this.upgrade.openFor(error, 'published')) return;
        this.messages.set(domain, { tone: 'destructive', text: errorText(error, 'The DNS check could not be run.') });
      });
    } finally {
      runInAction(() => this.working.delete(domain));
    }
  }

  askRemove(domain: string): void {
    this.confirmingRemove = domain;
  }

  cancelRemove(): void {
    this.confirmingRemove = null;
  }

  async confirmRemove(): Promise<void> {
    const domain = this.confirmingRemove;
    if (domain === null || this.working.has(domain)) return;
    this.working.set(domain, 'remove');
    try {
      const site = await this.api.removeDomain(this.host.projectId, domain);
      runInAction(() => {
        this.host.setSite(site);
        this.messages.delete(domain);
        this.confirmingRemove = null;
      });
      this.toasts.show({ title: 'Domain removed', description: `${domain} no longer serves your app.`, variant: 'success' });
      this.analytics.track('Domain Removed', { project_id: this.host.projectId, domain });
    } catch (error) {
      runInAction(() => {
        this.confirmingRemove = null;
        // A domain already gone is what the person wanted: drop it from the list.
        if (error instanceof ApiError && error.status === 404 && error.code === 'HOSTING.DOMAIN_NOT_FOUND') {
          const site = this.host.site;
          if (site !== null) this.host.setSite({ ...site, domains: site.domains.filter((d) => d.domain !== domain) });
          return;
        }
        this.messages.set(domain, { tone: 'destructive', text: errorText(error, 'The domain could not be removed.') });
      });
    } finally {
      runInAction(() => this.working.delete(domain));
    }
  }

  copy(text: string, what: string): Promise<void> {
    return this.host.copy(text, what);
  }

  /** A new project or a closed dialog: nothing typed, no old messages. */
  reset(): void {
    this.input = '';
    this.addError = null;
    this.confirmingRemove = null;
    this.messages.clear();
  }
}
