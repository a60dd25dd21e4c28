// Pure helpers that turn hosting DTOs into words and safe addresses for the screens.
import type { DnsRecordDto, DomainStatus } from '../../api/hosting.api';

/**
 * `url` when it is an absolute http(s) address, else null. Addresses from the API go into
 * href and iframe src: a `javascript:` or `data:` one must never get there.
 */
export function safeHttpUrl(url: string | null | undefined): string | null {
  if (typeof url !== 'string' || url === '') return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : null;
  } catch {
    return null;
  }
}

/** An image address: a path of Kiln's own origin ('/api/…', not '//host') or an http(s) URL. */
export function safeImageUrl(url: string | null | undefined): string | null {
  if (typeof url !== 'string' || url === '') return null;
  if (url.startsWith('/') && !url.startsWith('//') && !url.startsWith('/\\')) return url;
  return safeHttpUrl(url);
}

/** The address without its scheme and trailing slash, for display: 'chores.apps.localhost:3000'. */
export function displayUrl(url: string): string {
  return url.replace(/^https?:\/\//, '').replace(/\/$/, '');
}

/** `url` with a version parameter, so a new screenshot at the same address is fetched again. */
export function withVersion(url: string, version: string | null): string {
  if (version === null || version === '') return url;
  return `${url}${url.includes('?') ? '&' : '?'}v=${encodeURIComponent(version)}`;
}

const BYTE_UNITS = ['KB', 'MB', 'GB'] as const;

/** 812 B, 14.2 KB, 3.1 MB (1 KB = 1024 B). */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '—';
  if (bytes < 1024) return `${Math.round(bytes)} B`;
  let value = bytes;
  let unit: (typeof BYTE_UNITS)[number] = 'KB';
  for (const next of BYTE_UNITS) {
    value /= 1024;
    unit = next;
    if (value < 1024) break;
  }
  return `${value < 10 ? value.toFixed(1) : Math.round(value).toString()} ${unit}`;
}

/** The first 7 characters of a commit id, as git shows it. */
export function shortCommit(commit: string): string {
  return commit.slice(0, 7);
}

/** '8 s', '1 min 05 s'. */
export function formatElapsed(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  return `${Math.floor(seconds / 60)} min ${(seconds % 60).toString().padStart(2, '0')} s`;
}

export type StatusTone = 'success' | 'warning' | 'info' | 'destructive';

export const DOMAIN_STATUS: Readonly<Record<DomainStatus, { readonly label: string; readonly tone: StatusTone }>> = {
  pending: { label: 'Waiting for DNS', tone: 'warning' },
  verified: { label: 'Verified', tone: 'info' },
  certificate_issued: { label: 'Certificate issued', tone: 'info' },
  active: { label: 'Active', tone: 'success' },
  failed: { label: 'Failed', tone: 'destructive' },
};

/** The record that points the domain at Kiln (CNAME, or A/AAAA for an apex): its value is the expected target. */
export function targetRecord(records: readonly DnsRecordDto[]): DnsRecordDto | null {
  return records.find((r) => r.type === 'CNAME') ?? records.find((r) => r.type === 'A' || r.type === 'AAAA') ?? null;
}

/**
 * What a person typed or pasted as a domain, as the API wants it: no scheme, path, port or
 * trailing dot, lower case. The server still validates it (IP literals, Kiln's own domains…).
 */
export function normaliseDomainInput(input: string): string {
  let value = input.trim().toLowerCase();
  // Repeated until nothing changes: 'x:1.' loses its dot, then its port.
  for (;;) {
    const next = (value.replace(/^[a-z][a-z0-9+.-]*:\/\//, '').split(/[/?#]/, 1)[0] ?? '').replace(/:\d+$/, '').replace(/\.+$/, '').trim();
    if (next === value) return value;
    value = next;
  }
}
