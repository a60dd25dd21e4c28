import { type Page, expect, test } from '@playwright/test';
import { TOTP } from 'otpauth';
import { accessToken, continueProfileSetup, newEmail, signUpAndVerify } from './helpers';

const PERIOD_MS = 30_000;
/** The code an authenticator app holding `secret` shows for 30-second step `step`. */
const codeAt = (secret: string, step: number): string =>
  new TOTP({ secret, algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp: step * PERIOD_MS });
const currentStep = (): number => Math.floor(Date.now() / PERIOD_MS);

/** STYLE.md: every screen at 375 px and 1280 px, with nothing wider than the window. */
async function fitsWidths(page: Page): Promise<void> {
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 812 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  }
}

// Issue #17 item 5: enrol an authenticator app in Settings, sign out, sign in → asked for the
// code → a wrong one is refused in words → the right one lets the person in.
test('enrol TOTP in Settings, then sign in with the password and a code', async ({ page, request }) => {
  const email = newEmail('totp');
  const password = 'correct horse battery';
  await signUpAndVerify(page, request, email, password);
  await continueProfileSetup(page);

  // Settings › Profile › Two-factor authentication: the QR code and the key to type.
  await page.goto('/settings');
  const section = page.getByRole('region', { name: 'Two-factor authentication' });
  await section.getByRole('button', { name: 'Set up authenticator app' }).click();
  const qr = section.getByRole('img', { name: 'QR code to scan with your authenticator app' });
  await expect(qr).toBeVisible();
  expect(await qr.getAttribute('src')).toMatch(/^data:image\/svg\+xml;utf-8,<svg/);
  const secret = ((await section.getByTestId('totp-secret').textContent()) ?? '').trim();
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await fitsWidths(page);

  // The first code from the "app" turns it on.
  const enrolStep = currentStep();
  await section.getByLabel('Code from your app').fill(codeAt(secret, enrolStep));
  await section.getByRole('button', { name: 'Turn on' }).click();
  await expect(section.getByText('On', { exact: true })).toBeVisible();
  await expect(section.getByRole('list', { name: 'Authenticator apps' }).getByRole('button', { name: 'Remove' })).toHaveCount(1);

  // Sign out, then sign in with the password: the code is asked for before anything else.
  await page.getByRole('banner').getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/$/);
  await page.goto('/login');
  const main = page.getByRole('main');
  await main.getByLabel('Email').fill(email);
  await main.getByLabel('Password').fill(password);
  await main.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('heading', { name: 'Two-factor authentication' })).toBeVisible();
  await expect(page).toHaveURL(/\/login/);
  await fitsWidths(page);

  // The password alone opens nothing: the API refuses this session, and guarded screens send back here.
  const aal1 = await accessToken(page);
  const refused = await request.get('/api/profile', { headers: { authorization: `Bearer ${aal1}` } });
  expect(refused.status()).toBe(403);
  await page.goto('/settings');
  await expect(page).toHaveURL(/\/login/);
  await expect(page.getByRole('heading', { name: 'Two-factor authentication' })).toBeVisible();

  // A wrong code is refused in words people understand.
  const next = Math.max(enrolStep + 1, currentStep());
  const right = codeAt(secret, next);
  const wrong = [...new Set([next - 1, next, next + 1].map((step) => codeAt(secret, step)))].includes('000000') ? '999999' : '000000';
  await page.getByLabel('Authentication code').fill(wrong);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByText("That code isn't right. Enter the 6-digit code your authenticator app shows now.")).toBeVisible();

  // The right code (a newer step than the one used to enrol: a used code never works twice) lets the person in.
  await page.getByLabel('Authentication code').fill(right);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/settings$/);
  await expect(page.getByRole('region', { name: 'Two-factor authentication' }).getByText('On', { exact: true })).toBeVisible();
  const aal2 = await accessToken(page);
  expect((await request.get('/api/profile', { headers: { authorization: `Bearer ${aal2}` } })).status()).toBe(200);
});
