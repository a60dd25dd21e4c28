import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { accessToken, newEmail, signUpAndVerify } from './helpers';

// Screenshots of the real screens (desktop 1280 px and mobile 375 px). They always run; they
// refresh docs/screens/ only with UPDATE_SCREENS=1, so a test run leaves the tree unchanged.
const out = process.env['UPDATE_SCREENS'] === '1' ? path.resolve(__dirname, '../../../docs/screens') : path.join(tmpdir(), 'kiln-screens');
const sizes = [
  { name: 'desktop', width: 1280, height: 860 },
  { name: 'mobile', width: 375, height: 812 },
] as const;

for (const size of sizes) {
  test(`screens at ${size.width} px`, async ({ page, request }) => {
    await page.setViewportSize({ width: size.width, height: size.height });
    await page.goto('/');
    await expect(page.getByRole('heading', { name: 'What do you want to build?' })).toBeVisible();
    await page.screenshot({ path: `${out}/landing-${size.name}.png` });

    await page.goto('/signup');
    await expect(page.getByRole('main').getByRole('button', { name: 'Create account' })).toBeVisible();
    await page.screenshot({ path: `${out}/signup-${size.name}.png` });

    const email = newEmail(`screens-${size.name}`);
    await page.getByRole('main').getByLabel('Name').fill('Ana Tester');
    await page.getByRole('main').getByLabel('Email').fill(email);
    await page.getByRole('main').getByLabel('Password').fill('correct horse battery');
    await page.getByRole('main').getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByRole('heading', { name: 'Check your email' })).toBeVisible();
    await page.screenshot({ path: `${out}/verify-${size.name}.png` });

    await page.goto('/pricing');
    await expect(page.getByRole('heading', { name: 'Pro Monthly', exact: true })).toBeVisible();
    await page.screenshot({ path: `${out}/pricing-${size.name}.png`, fullPage: true });

    const other = newEmail(`settings-${size.name}`);
    await signUpAndVerify(page, request, other, 'correct horse battery');
    await page.goto('/settings?tab=plan');
    await expect(page.getByText('Usage limits')).toBeVisible();
    await page.screenshot({ path: `${out}/settings-usage-${size.name}.png`, fullPage: true });
    await page.goto('/settings?tab=referrals');
    await expect(page.getByRole('textbox', { name: 'Your referral link' })).toBeVisible();
    await page.screenshot({ path: `${out}/settings-referrals-${size.name}.png`, fullPage: true });
    // Nothing is cut off: no horizontal scroll, and the section tabs fit without scrolling.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(size.width);
    const tabs = page.getByRole('tablist', { name: 'Settings sections' });
    expect(await tabs.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
    await expect(page.getByRole('tab', { name: 'Referrals' })).toBeInViewport({ ratio: 1 });

    // Home, signed in: the person's projects under the idea box.
    const auth = { authorization: `Bearer ${await accessToken(page)}` };
    for (const name of ['Chores', 'Bean There', 'Streaks']) await request.post('/api/projects', { headers: auth, data: { name } });
    await page.goto('/');
    const projects = page.getByRole('region', { name: 'Your projects' });
    await expect(projects.getByRole('link', { name: 'Streaks' })).toBeVisible();
    await projects.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${out}/home-projects-${size.name}.png` });
  });
}
