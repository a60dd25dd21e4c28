import { expect, test } from '@playwright/test';
import { accessToken, continueProfileSetup, newEmail, signUpAndVerify } from './helpers';

// The journey, in one browser context, against `npm start` on a fresh database.
test('sign up, verify, plans, referrals, sign out, guarded page back after login', async ({ page, request }) => {
  const email = newEmail('journey');
  const password = 'correct horse battery';

  await signUpAndVerify(page, request, email, password);
  await continueProfileSetup(page);
  await expect(page).not.toHaveURL(/profile-setup/);

  // The profile exists, on the free plan.
  const token = await accessToken(page);
  const profile = await request.get('/api/profile', { headers: { authorization: `Bearer ${token}` } });
  expect(profile.status()).toBe(200);
  expect(await profile.json()).toMatchObject({ email, subscription_plan: 'free', credits: 5 });

  // Pricing shows the three plans (the interval toggle switches Pro Monthly / Pro Annual).
  await page.goto('/pricing');
  await expect(page.getByRole('heading', { name: 'Free', exact: true })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Pro Monthly', exact: true })).toBeVisible();
  await expect(page.getByText('$25', { exact: true })).toBeVisible();
  await page.getByRole('radio', { name: /Annual/ }).check({ force: true });
  await expect(page.getByRole('heading', { name: 'Pro Annual', exact: true })).toBeVisible();
  await expect(page.getByText('$240', { exact: true })).toBeVisible();

  // Settings → referrals shows the share link with the user's code.
  await page.goto('/settings?tab=referrals');
  const link = page.getByRole('textbox', { name: 'Your referral link' });
  await expect(link).toHaveValue(/\/\?ref=[A-HJ-NP-Z2-9]{6}$/);

  // Sign out: the session ends on the server too (the old access token is refused), and a
  // guarded page then asks to sign in and returns there after login.
  await page.getByRole('banner').getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('banner').getByRole('link', { name: 'Get started' })).toBeVisible();
  expect((await request.get('/api/profile', { headers: { authorization: `Bearer ${token}` } })).status()).toBe(401);
  await page.goto('/settings?tab=referrals');
  await expect(page).toHaveURL(/\/get-started/);
  await page.getByRole('link', { name: 'Log in' }).click();
  await page.getByRole('main').getByLabel('Email').fill(email);
  await page.getByRole('main').getByLabel('Password').fill(password);
  await page.getByRole('main').getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/settings\?tab=referrals/);
  await expect(page.getByRole('textbox', { name: 'Your referral link' })).toBeVisible();
});

test('an unknown path shows the 404 text', async ({ page }) => {
  await page.goto('/no/such/page');
  await expect(page.getByText('Page not found: /no/such/page')).toBeVisible();
});

test('a wrong code is refused in words people understand', async ({ page, request }) => {
  const email = newEmail('wrong-code');
  await page.goto('/signup');
  const main = page.getByRole('main');
  await main.getByLabel('Name').fill('Bo');
  await main.getByLabel('Email').fill(email);
  await main.getByLabel('Password').fill('correct horse battery');
  await main.getByRole('button', { name: 'Create account' }).click();
  await expect(page).toHaveURL(/\/verify/);
  await request.get(`/api/dev/outbox?email=${encodeURIComponent(email)}`);
  await page.getByLabel('Verification code').fill('000000');
  await expect(page.getByText('That code is wrong or has expired.', { exact: false })).toBeVisible();
});

test('an idea typed on the landing page becomes a project after sign-up', async ({ page, request }) => {
  await page.goto('/');
  await page.getByRole('textbox', { name: 'Describe the app you want to build' }).fill('A habit tracker with streaks');
  await page.getByRole('button', { name: 'Build it' }).click();
  await expect(page).toHaveURL(/\/get-started/);
  await expect(page.getByText('A habit tracker with streaks')).toBeVisible();

  await signUpAndVerify(page, request, newEmail('idea'), 'correct horse battery');
  await continueProfileSetup(page);
  // The project is created from the idea, its sandbox set up (SPEC §4 stages), then the builder opens.
  await expect(page).toHaveURL(/\/(creation|builder)\/[0-9a-f-]{36}$/);
  await expect(page).toHaveURL(/\/builder\/[0-9a-f-]{36}$/, { timeout: 60_000 });
  await expect(page.getByRole('heading', { name: 'A habit tracker with streaks' })).toBeVisible();
});
