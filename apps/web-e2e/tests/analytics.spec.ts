import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { FakeGa4Server } from './fake-ga4-server';
import { continueProfileSetup, newEmail, signUpAndVerify } from './helpers';

// Issue #17: every event reaches Kiln's own store (POST /api/analytics/events, answered by the
// real API) and, when a GA4 measurement id is configured, Google's tag — here a local fake that
// speaks GA4's wire format (gtag.js reading window.dataLayer, /g/collect hits with v=2, tid, en).
//
// The shared e2e server starts without GA4_MEASUREMENT_ID, so this spec serves the analytics
// settings itself (the API's answer to GET /api/analytics/config is proven in the API's e2e) and
// lifts the page's CSP, which allows the tag's origin only when GA4 is configured at start
// (apps/api/src/web/web-app.spec.ts proves that policy).
const MEASUREMENT_ID = 'G-KILNE2E1';
let ga4: FakeGa4Server;

test.use({ bypassCSP: true });
test.beforeAll(async () => {
  ga4 = await new FakeGa4Server().start();
});
test.afterAll(async () => {
  await ga4.stop();
});
test.beforeEach(async ({ page }) => {
  await page.route('**/api/analytics/config', (route) =>
    route.fulfill({ json: { ga4_measurement_id: MEASUREMENT_ID, ga4_script_origin: ga4.origin, enabled_on_localhost: true } }),
  );
});

test('page views and SPEC §7 events reach Kiln and GA4 (gtag.js loaded, collect hits v=2 with tid and en)', async ({ page, request }) => {
  const firstBatch = page.waitForRequest((r) => r.method() === 'POST' && new URL(r.url()).pathname === '/api/analytics/events');
  await page.goto('/pricing');

  // Kiln's own store took the page view and the pricing page's 'Subscription ViewPlan'.
  const batch = await firstBatch;
  const sent = (batch.postDataJSON() as { events: { name: string; properties?: Record<string, unknown> }[] }).events;
  expect(sent).toContainEqual({ kind: 'custom', name: 'page_view', properties: { page_path: '/pricing' } });
  expect(sent.map((e) => e.name)).toContain('Subscription ViewPlan');
  expect((await batch.response())?.status()).toBe(202);

  // Google's tag was added once, for the configured id, and its hits carry GA4's fields.
  await expect.poll(() => ga4.scriptRequests).toEqual([MEASUREMENT_ID]);
  await expect.poll(() => ga4.hitsNamed('page_view').map((h) => h['ep.page_path'])).toContain('/pricing');
  expect(ga4.hitsNamed('page_view')[0]).toMatchObject({ v: '2', tid: MEASUREMENT_ID, en: 'page_view' });
  await expect.poll(() => ga4.hitsNamed('Subscription ViewPlan').length).toBeGreaterThan(0);
  await expect(page.locator(`script[src="${ga4.origin}/gtag/js?id=${MEASUREMENT_ID}"]`)).toHaveCount(1);

  // Signing up sends 'Signup'; a client-side navigation sends one more page view.
  await signUpAndVerify(page, request, newEmail('analytics'), 'correct horse battery');
  await expect.poll(() => ga4.hitsNamed('Signup').map((h) => h['ep.method'])).toEqual(['email']);
  await expect.poll(() => ga4.hitsNamed('page_view').map((h) => h['ep.page_path'])).toEqual(expect.arrayContaining(['/signup', '/profile-setup']));
  expect(new Set(ga4.hitsNamed('Signup').map((h) => h['tid']))).toEqual(new Set([MEASUREMENT_ID]));

  // The operators' chart is not for a new account: the API says 403 and the page says so.
  await continueProfileSetup(page);
  await page.goto('/operators/activity');
  await expect(page.getByRole('alert').filter({ hasText: 'This page is for Kiln operators.' })).toBeVisible();
});

// The operators' chart screen at 1280 px and 375 px. The shared e2e server has no OPERATOR_EMAILS,
// so the daily counts are served here (GET /api/analytics/daily-activity itself is proven in the
// API's e2e); the page, its view-model and the SVG are the real ones.
test('the operators’ activity chart: totals, three lines, ranges, nothing cut off at 375 px', async ({ page, request }) => {
  const asked: string[] = [];
  await page.route(/\/api\/analytics\/daily-activity/, (route) => {
    const url = route.request().url();
    asked.push(url.replace(/^.*\/api\//, ''));
    const days = Number(/[?&]days=(\d+)/.exec(url)?.[1] ?? 'NaN');
    const rows = Array.from({ length: days }, (_, i) => ({
      day: new Date(Date.UTC(2026, 10, 26) - (days - 1 - i) * 86_400_000).toISOString().slice(0, 10),
      page_views: 10 + i,
      signups: i % 3,
      prompts: 2 * (i % 5),
    }));
    return route.fulfill({ json: { days: rows } });
  });
  await signUpAndVerify(page, request, newEmail('operator'), 'correct horse battery');
  await continueProfileSetup(page);

  for (const size of [
    { width: 1280, height: 860 },
    { width: 375, height: 812 },
  ]) {
    await page.setViewportSize(size);
    await page.goto('/operators/activity');
    await expect(page.getByRole('heading', { name: 'Site activity' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Last 30 days' })).toBeVisible();
    expect(asked.at(-1)).toBe('analytics/daily-activity?days=30');
    // 30 days of 10…39 page views: 735 in all.
    await expect(page.getByTestId('total-page_views')).toHaveText('735');
    await expect(page.getByRole('img', { name: /Daily activity chart/ }).locator('polyline')).toHaveCount(3);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(size.width);
    await page.screenshot({ path: path.join(tmpdir(), 'kiln-screens', `operators-activity-${size.width}.png`), fullPage: true });
  }

  await page.getByRole('radiogroup', { name: 'Range' }).getByText('7 days').click();
  await expect(page.getByRole('heading', { name: 'Last 7 days' })).toBeVisible();
  await expect(page.getByTestId('total-page_views')).toHaveText('91');
  // Each visit asked for 30 days (a page mounted again by the session's checks may ask twice), the range 7.
  const days = asked.map((a) => a.split('=')[1]);
  expect(days.at(-1)).toBe('7');
  expect(new Set(days.slice(0, -1))).toEqual(new Set(['30']));
});
