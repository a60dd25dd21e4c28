import { type Page, expect, test } from '@playwright/test';
import { accessToken, codeFromOutbox, continueProfileSetup, newEmail, signUpAndVerify } from './helpers';

const PASSWORD = 'correct horse battery';

/** Fills and sends the sign-up form once; the caller decides what counts as success. */
async function submitSignUp(page: Page, email: string) {
  await page.goto('/signup');
  const main = page.getByRole('main');
  await main.getByLabel('Name').fill('Ana Again');
  await main.getByLabel('Email').fill(email);
  await main.getByLabel('Password').fill(PASSWORD);
  await main.getByRole('button', { name: 'Create account' }).click();
}

// Issue #17 item 4: deleting an account in Settings (confirmed by typing the email) ends it —
// signing in fails — and the same email can sign up again as a fresh account.
test('delete the account in Settings: signing in fails, the same email signs up as a new account', async ({ page, request }) => {
  test.setTimeout(180_000);
  const email = newEmail('delete-me');
  await signUpAndVerify(page, request, email, PASSWORD);
  await continueProfileSetup(page);
  const oldAuth = { authorization: `Bearer ${await accessToken(page)}` };
  const oldCode = ((await (await request.get('/api/referrals', { headers: oldAuth })).json()) as { referral_code: string }).referral_code;
  expect((await request.post('/api/projects', { headers: oldAuth, data: { name: 'Doomed' } })).status()).toBe(201);

  // Settings › Profile › Delete account: the button stays off until the email is typed.
  await page.goto('/settings');
  await page.getByRole('button', { name: 'Delete account' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete your account?' });
  const confirm = dialog.getByRole('button', { name: 'Delete account' });
  await expect(confirm).toBeDisabled();
  await dialog.getByRole('textbox').fill(email);
  await confirm.click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByText('Account deleted', { exact: true })).toBeVisible();
  expect((await request.get('/api/profile', { headers: oldAuth })).status()).toBe(401);

  // Signing in again fails.
  await page.goto('/login');
  await page.getByRole('main').getByLabel('Email').fill(email);
  await page.getByRole('main').getByLabel('Password').fill(PASSWORD);
  await page.getByRole('main').getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByText("That email and password don't match an account.", { exact: false })).toBeVisible();
  await expect(page).toHaveURL(/\/login/);

  // The same email signs up anew, once the address's mail cooldown (60 s) has passed.
  await expect(async () => {
    await submitSignUp(page, email);
    await expect(page).toHaveURL(/\/verify\?email=/, { timeout: 5_000 });
  }).toPass({ intervals: [10_000], timeout: 100_000 });
  await page.getByLabel('Verification code').fill(await codeFromOutbox(request, email));
  await expect(page).toHaveURL(/\/profile-setup/);
  await continueProfileSetup(page);

  // A fresh account: none of the old projects, a referral code of its own, no earnings.
  const auth = { authorization: `Bearer ${await accessToken(page)}` };
  expect(await (await request.get('/api/projects', { headers: auth })).json()).toEqual([]);
  const referrals = (await (await request.get('/api/referrals', { headers: auth })).json()) as { referral_code: string; referred_count: number };
  expect(referrals.referral_code).not.toBe(oldCode);
  expect(referrals.referred_count).toBe(0);
  // The deleted profile is hidden: its code resolves to nobody.
  const applied = await request.post('/api/referrals/apply', { headers: auth, data: { code: oldCode } });
  expect(applied.status()).toBe(404);
});

// Issue #17 item 7: the usage-limits panel and the SPEC §2 billing buttons are reachable from the builder.
test('the builder exposes the plan & usage panel with the billing buttons and a manual sync', async ({ page, request, context }) => {
  test.setTimeout(120_000);
  await signUpAndVerify(page, request, newEmail('builder-billing'), PASSWORD);
  await continueProfileSetup(page);
  const auth = { authorization: `Bearer ${await accessToken(page)}` };
  const created = await request.post('/api/projects', { headers: auth, data: { name: 'Billing from the builder' } });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: string };

  await page.goto(`/builder/${id}`);
  await page.getByRole('button', { name: 'Plan & usage' }).click();
  const panel = page.getByRole('dialog', { name: 'Plan & usage' });
  await expect(panel.getByText('Usage limits', { exact: true })).toBeVisible();
  await expect(panel.getByText('Prompts this cycle')).toBeVisible();
  await expect(panel.getByText('Credits remaining', { exact: true })).toBeVisible();
  await expect(panel.getByText('No invoices yet.')).toBeVisible();

  // Free plan, no subscription: View Plans, View Pricing Plans and Refer to Friends; no paid-plan buttons.
  await expect(panel.getByRole('link', { name: 'View Plans' })).toHaveAttribute('href', '/pricing');
  await expect(panel.getByRole('link', { name: 'View Pricing Plans' })).toHaveAttribute('href', '/pricing');
  await expect(panel.getByRole('button', { name: 'Get More Credits' })).toHaveCount(0);
  await expect(panel.getByRole('button', { name: 'Manage Subscription' })).toHaveCount(0);
  await expect(panel.getByRole('button', { name: 'Earn More Credits' })).toHaveCount(0);

  // Refer to Friends opens the referrals tab in a new window.
  const [referrals] = await Promise.all([context.waitForEvent('page'), panel.getByRole('button', { name: /Refer to Friends/ }).click()]);
  await expect(referrals).toHaveURL(/\/settings\?tab=referrals$/);
  await referrals.close();

  // A manual sync with no subscription at the provider says so.
  await panel.getByRole('button', { name: 'Sync subscription' }).click();
  await expect(page.getByText('No active subscription found. Please subscribe first.', { exact: true })).toBeVisible();

  // A project page whose id cannot be one: SPEC §8 'Page Not Found: {path}'.
  await page.goto('/builder/not-a-project');
  await expect(page.getByRole('heading', { name: 'Page Not Found: /builder/not-a-project' })).toBeVisible();
});
