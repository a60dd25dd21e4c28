import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { accessToken, continueProfileSetup, newEmail, signUpAndVerify } from './helpers';

// Issue #17 item 6's journey on a fresh `npm start` (offline assistant, real sandbox and preview):
// a new account → a new project through "Set up step by step" → the wizard: name, the landing
// template, a theme, no database, a first prompt → the builder runs the first turn and the
// preview shows the result.
test('the wizard takes a new project from a template to its first build', async ({ page, request }) => {
  test.setTimeout(300_000);
  await signUpAndVerify(page, request, newEmail('wizard'), 'correct horse battery');
  await continueProfileSetup(page);
  const auth = { authorization: `Bearer ${await accessToken(page)}` };

  // New project → the wizard.
  await page.goto('/');
  await page.getByRole('button', { name: 'Set up step by step' }).click();
  await expect(page).toHaveURL(/\/wizard\/[0-9a-f-]{36}$/, { timeout: 30_000 });
  const projectId = /\/wizard\/([0-9a-f-]{36})$/.exec(page.url())?.[1] as string;

  // 1. Name.
  await expect(page.getByRole('heading', { name: 'Name your project' })).toBeVisible();
  await page.getByLabel('Project name').fill('Crumbs Bakery');
  await page.getByRole('button', { name: 'Next' }).click();

  // 2. Template: the catalog's five, landing chosen (its files are written into the sandbox).
  await expect(page.getByRole('heading', { name: 'Choose a template' })).toBeVisible();
  for (const name of ['Blank', 'Landing page', 'Dashboard', 'Online store', 'Blog']) await expect(page.getByRole('radio', { name })).toBeVisible();
  // The step fits a 375 px phone (no sideways scrolling) and a 1280 px desktop (STYLE.md).
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 860 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await page.screenshot({ path: path.join(tmpdir(), 'kiln-screens', `wizard-template-${width}.png`), fullPage: true });
  }
  await page.getByRole('radio', { name: 'Landing page' }).check();
  await page.getByRole('button', { name: 'Next' }).click();

  // 3. Theme.
  await expect(page.getByRole('heading', { name: 'Pick a theme' })).toBeVisible({ timeout: 90_000 });
  await page.getByRole('radio', { name: 'Ocean' }).check();
  await page.getByRole('button', { name: 'Next' }).click();

  // 4. No database.
  await expect(page.getByRole('heading', { name: 'Add a database?' })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('radio', { name: 'No database' })).toBeChecked();
  await page.getByRole('button', { name: 'Next' }).click();

  // What the steps did, on the server: renamed, the template and the theme saved as versions, no database.
  await expect(page.getByRole('heading', { name: 'Describe your first change' })).toBeVisible();
  expect(((await (await request.get(`/api/projects/${projectId}`, { headers: auth })).json()) as { name: string }).name).toBe('Crumbs Bakery');
  const versions = (await (await request.get(`/api/sandbox/${projectId}/git/history`, { headers: auth })).json()) as Array<{ message: string }>;
  expect(versions.map((v) => v.message).slice(0, 2)).toEqual(['Apply theme Ocean', 'Start from the Landing page template']);
  const app = (await (await request.get(`/api/sandbox/${projectId}/read-file?path=src/App.tsx`, { headers: auth })).json()) as { content: string };
  expect(app.content).toContain('<Features />');
  expect(((await (await request.get(`/api/db/check/${projectId}`, { headers: auth })).json()) as { connected: boolean }).connected).toBe(false);

  // 5. The first prompt → the builder, which runs it as the first turn; the preview shows the build.
  await page.getByLabel('First prompt').fill('Change the title to Crumbs Bakery');
  await page.getByRole('button', { name: 'Start building' }).click();
  await expect(page).toHaveURL(new RegExp(`/builder/${projectId}$`), { timeout: 30_000 });
  const conversation = page.getByRole('log', { name: 'Conversation' });
  await expect(conversation.getByRole('article', { name: 'User message' }).first()).toContainText('Change the title to Crumbs Bakery');
  await expect(conversation.getByText('Kept as a new version').first()).toBeVisible({ timeout: 150_000 });
  const preview = page.frameLocator('iframe[title="App preview"]');
  await expect(preview.getByText('Crumbs Bakery').first()).toBeVisible({ timeout: 60_000 });
  // The landing template is what was built on: its sections are in the preview.
  await expect(preview.locator('#features')).toBeVisible();
});
