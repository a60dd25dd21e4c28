import { type Browser, type Page, expect, test } from '@playwright/test';
import { continueProfileSetup, newEmail, signUpAndVerify } from './helpers';

// Issue 15's journey on a fresh `npm start` (offline assistant, real sandbox, embedded hosting):
// an app is built → the free plan's Publish opens the upgrade dialog → Pro through the local
// checkout → Publish → the URL answers the app in a new, logged-out browser context → an edit
// is published again → rollback serves the first release → the Domains tab shows the records.

/** The published site as a visitor without any Kiln session sees it. */
async function visit(browser: Browser, url: string): Promise<{ page: Page; close: () => Promise<void> }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const response = await page.goto(url);
  expect(response?.status()).toBe(200);
  return { page, close: () => context.close() };
}

test('publish a built app, open it logged out, publish an edit, roll back, add a domain', async ({ page, request, browser }) => {
  test.setTimeout(420_000);

  // An idea → sign-up → the assistant builds "Chores".
  await page.goto('/');
  await page.getByRole('textbox', { name: 'Describe the app you want to build' }).fill('A todo list app called Chores');
  await page.getByRole('button', { name: 'Build it' }).click();
  await expect(page).toHaveURL(/\/get-started/);
  await signUpAndVerify(page, request, newEmail('publish'), 'correct horse battery');
  await continueProfileSetup(page);
  await expect(page).toHaveURL(/\/builder\/[0-9a-f-]{36}$/, { timeout: 90_000 });
  const builderPath = new URL(page.url()).pathname;
  const conversation = page.getByRole('log', { name: 'Conversation' });
  await expect(conversation.getByText('Kept as a new version').first()).toBeVisible({ timeout: 120_000 });
  await expect(page.frameLocator('iframe[title="App preview"]').getByText('Chores').first()).toBeVisible({ timeout: 60_000 });

  // The free plan publishes nothing: Publish opens the upgrade dialog for the published limit.
  await page.getByRole('button', { name: 'Publish', exact: true }).click();
  const upgrade = page.getByRole('dialog', { name: "You've reached your published project limit" });
  await expect(upgrade).toBeVisible();
  await expect(page.getByRole('dialog', { name: 'Publish your app' })).toBeHidden();
  await expect(upgrade.getByText('Pro Monthly')).toBeVisible();
  await upgrade.getByRole('button', { name: 'Upgrade' }).click();

  // The local test checkout, then back in the builder on Pro.
  await expect(page).toHaveURL(/\/local-checkout\//);
  await page.getByRole('button', { name: 'Pay' }).click();
  await expect(page.getByText('Subscription Updated', { exact: true })).toBeVisible({ timeout: 15_000 });
  await expect(page).toHaveURL(new RegExp(`${builderPath}$`));

  // Publish: the dialog shows the build running, then the live address.
  await page.getByRole('button', { name: 'Publish', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Publish your app' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText('Not published yet')).toBeVisible();
  await dialog.getByRole('button', { name: 'Publish', exact: true }).click();
  const progress = dialog.getByRole('list', { name: 'Publish progress' });
  await expect(progress).toBeVisible();
  const address = dialog.getByRole('region', { name: "Your app's address" });
  await expect(address).toBeVisible({ timeout: 120_000 });
  await expect(progress.getByRole('listitem').filter({ hasText: 'Live' })).toContainText('(done)');
  const url = (await address.getByRole('link', { name: 'Open' }).getAttribute('href')) as string;
  expect(url).toMatch(/^https?:\/\//);
  await expect(dialog.getByRole('list', { name: 'Releases' }).getByRole('listitem')).toHaveCount(1);

  // No cookie of Kiln's (the preview's included) is sent to the published host.
  expect(await page.context().cookies(url)).toEqual([]);

  // Anyone can open it: a new browser context, no sign-in.
  const visitor = await visit(browser, url);
  await expect(visitor.page.getByText('Chores').first()).toBeVisible({ timeout: 30_000 });

  // /project-preview/{slug} frames the same app, for anyone.
  const slug = new URL(url).hostname.split('.')[0] as string;
  await visitor.page.goto(new URL(`/project-preview/${slug}`, page.url()).href);
  await expect(visitor.page.getByRole('link', { name: 'Open app' })).toHaveAttribute('href', url);
  await expect(visitor.page.frameLocator('iframe[title$=", live"]').getByText('Chores').first()).toBeVisible({ timeout: 30_000 });

  // An edit, published again: a second release, and the visitor gets it.
  await dialog.getByRole('button', { name: 'Close' }).click();
  await page.getByRole('textbox', { name: 'Message the assistant' }).fill('Change the title to Errands');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(conversation.getByText('Kept as a new version')).toHaveCount(2, { timeout: 120_000 });
  await page.getByRole('button', { name: 'Publish', exact: true }).click();
  await dialog.getByRole('button', { name: 'Publish again' }).click();
  const releases = dialog.getByRole('list', { name: 'Releases' }).getByRole('listitem');
  await expect(releases).toHaveCount(2, { timeout: 120_000 });
  await expect(releases.first()).toContainText('#2');
  await expect(releases.first()).toContainText('Current');
  await visitor.page.goto(url);
  await expect(visitor.page.getByText('Errands').first()).toBeVisible({ timeout: 30_000 });

  // Rollback: release #1 is served again at once.
  await dialog.getByRole('button', { name: 'Roll back to release #1' }).click();
  await expect(page.getByText('Release #1 is live', { exact: true })).toBeVisible();
  await expect(releases.last()).toContainText('Current');
  await visitor.page.reload();
  await expect(visitor.page.getByText('Chores').first()).toBeVisible({ timeout: 30_000 });
  await expect(visitor.page.getByText('Errands')).toHaveCount(0);
  await visitor.close();

  // Domains: adding one shows the two records to create; Verify reports what DNS says.
  await dialog.getByRole('tab', { name: 'Domains' }).click();
  const domain = `www.kiln-e2e-${Date.now().toString(36)}.com`;
  await dialog.getByRole('textbox', { name: 'Domain' }).fill(domain);
  await dialog.getByRole('button', { name: 'Add', exact: true }).click();
  const records = dialog.getByRole('table', { name: `DNS records for ${domain}` });
  await expect(records).toBeVisible();
  await expect(records.getByRole('row').filter({ hasText: 'TXT' })).toContainText(`_kiln-challenge.${domain}`);
  await expect(records.getByRole('row').filter({ hasText: 'CNAME' })).toContainText(domain);
  const item = dialog.getByRole('list', { name: 'Domains' }).getByRole('listitem').filter({ hasText: domain });
  await expect(item.getByText('Waiting for DNS')).toBeVisible();
  await item.getByRole('button', { name: `Verify ${domain}` }).click();
  // No DNS answers for a made-up domain: either the records are missing or no resolver answered.
  await expect(item.getByRole('alert')).toBeVisible({ timeout: 30_000 });
  await expect(item.getByText('Waiting for DNS')).toBeVisible();
});
