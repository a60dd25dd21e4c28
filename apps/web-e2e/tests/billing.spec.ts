import { expect, test } from '@playwright/test';
import { accessToken, continueProfileSetup, newEmail, signUpAndVerify } from './helpers';

// Issue 7's journey on the local (test) checkout: credit limit → upgrade → Pro Monthly → add-on
// credits → cancel → back to free at period end, add-on credits kept.
test('free credits run out, upgrade through the local checkout, buy add-on credits, cancel', async ({ page, request }) => {
  test.setTimeout(120_000);
  await signUpAndVerify(page, request, newEmail('billing'), 'correct horse battery');
  await continueProfileSetup(page);
  const auth = { authorization: `Bearer ${await accessToken(page)}` };

  // The five monthly prompts of the free plan, then the credit limit.
  for (let i = 1; i <= 5; i += 1) {
    const r = await request.post('/api/credits/consume', { headers: { ...auth, 'idempotency-key': `e2e-${i}` } });
    expect(r.status()).toBe(200);
  }
  const sixth = await request.post('/api/credits/consume', { headers: { ...auth, 'idempotency-key': 'e2e-6' } });
  expect(sixth.status()).toBe(402);
  expect(await sixth.json()).toMatchObject({ code: 'CREDITS.LIMIT_REACHED', limit_type: 'credit' });

  // Settings shows the limit; Upgrade opens the upgrade dialog for the credit limit.
  await page.goto('/settings?tab=plan');
  const limit = page.getByRole('alert').filter({ hasText: "You've used all your credits" });
  await expect(limit).toBeVisible();
  await limit.getByRole('button', { name: 'Upgrade' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('heading', { name: "You've used all your credits" })).toBeVisible();
  await expect(dialog.getByText('Pro Monthly')).toBeVisible();
  await dialog.getByRole('button', { name: 'Upgrade' }).click();

  // The local checkout page, clearly marked as a test.
  await expect(page).toHaveURL(/\/local-checkout\//);
  await expect(page.getByText('TEST CHECKOUT', { exact: false })).toBeVisible();
  await page.getByRole('button', { name: 'Pay' }).click();

  // Back in the app: the subscription syncs and settings shows Pro Monthly with 25 prompts.
  await expect(page.getByText('Subscription Updated', { exact: true })).toBeVisible({ timeout: 15_000 });
  await expect(page).toHaveURL(/\/settings/);
  const profile = await (await request.get('/api/profile', { headers: auth })).json();
  expect(profile).toMatchObject({ subscription_plan: 'pro_monthly', subscription_status: 'active', credits: 25 });
  await page.goto('/settings?tab=plan');
  await expect(page.getByText('Pro Monthly').first()).toBeVisible();

  // Add-on credits: 500 more, through the same local checkout.
  await page.getByRole('button', { name: 'Get More Credits' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Buy Now' }).click();
  await expect(page).toHaveURL(/\/local-checkout\//);
  await page.getByRole('button', { name: 'Pay' }).click();
  await expect(page.getByText('500 credits added', { exact: true })).toBeVisible({ timeout: 15_000 });
  await expect(page).toHaveURL(/\/settings/);
  await expect.poll(async () => (await (await request.get('/api/profile', { headers: auth })).json()).extra_credits).toBe(500);

  // Cancel: the plan stays until the period ends, then the user is on free with add-ons kept.
  await page.goto('/settings?tab=plan');
  await page.getByRole('button', { name: 'Cancel subscription' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Cancel subscription' }).click();
  await expect(page.getByText(/will be canceled at the end of the billing period|Subscription canceled/).first()).toBeVisible();
  // Still Pro until the period ends…
  expect(await (await request.get('/api/profile', { headers: auth })).json()).toMatchObject({ subscription_plan: 'pro_monthly' });
  // …which the local checkout's dev hook brings forward.
  expect((await request.post('/api/dev/billing/end-period', { headers: auth })).status()).toBe(200);
  const after = await (await request.get('/api/profile', { headers: auth })).json();
  expect(after).toMatchObject({ subscription_plan: 'free', extra_credits: 500 });
  await page.goto('/settings?tab=plan');
  await expect(page.getByText('500', { exact: true })).toBeVisible();
});
