import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { continueProfileSetup, newEmail, newProjectInBuilder, signUpAndVerify } from './helpers';

// SPEC §3 builder state "selected element", on a fresh `npm start` with the offline assistant:
// the person picks an element in the live preview and says what to do with it; the chat carries
// the pick, and the preview shows the change. The app's own click handlers never see the pick.

test('select an element in the preview, then “change this to …” changes it', async ({ page, request }) => {
  test.setTimeout(300_000);
  await page.goto('/');
  await page.getByRole('textbox', { name: 'Describe the app you want to build' }).fill('A recipe finder where I can save favourite recipes, called Pantry');
  await page.getByRole('button', { name: 'Build it' }).click();
  await signUpAndVerify(page, request, newEmail('select'), 'correct horse battery');
  await continueProfileSetup(page);
  await expect(page).toHaveURL(/\/builder\/[0-9a-f-]{36}$/, { timeout: 90_000 });
  const conversation = page.getByRole('log', { name: 'Conversation' });
  await expect(conversation.getByText('Kept as a new version').first()).toBeVisible({ timeout: 120_000 });
  const preview = page.frameLocator('iframe[title="App preview"]');
  const heading = preview.getByRole('heading', { level: 1 });
  await expect(heading).toHaveText('Pantry', { timeout: 60_000 });

  // At tablet width the frame is not scaled down (Playwright aims clicks in a scaled frame badly).
  await page.getByRole('button', { name: 'Tablet' }).click();
  const select = page.getByRole('button', { name: 'Select an element' });
  await select.click();
  await expect(select).toHaveAttribute('aria-pressed', 'true');
  await heading.click();
  await expect(select).toHaveAttribute('aria-pressed', 'false');
  const chip = page.getByLabel('Selected element', { exact: true });
  await expect(chip).toContainText('<h1>');
  await expect(chip).toContainText('Pantry');

  // Not about it after all, then about it again.
  await page.getByRole('button', { name: 'Clear the selected element' }).click();
  await expect(chip).toHaveCount(0);
  await select.click();
  await heading.click();
  await expect(chip).toContainText('Pantry');

  await page.getByRole('textbox', { name: 'Message the assistant' }).fill('change this to Larder');
  await page.screenshot({ path: path.join(tmpdir(), 'kiln-screens', 'select-element.png') });
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(conversation.getByText('Kept as a new version')).toHaveCount(2, { timeout: 120_000 });
  await expect(heading).toHaveText('Larder', { timeout: 60_000 });
  // The message shows the person's words, and the element it was about under them.
  const sent = conversation.getByRole('article', { name: 'User message' }).last();
  await expect(sent).toContainText('change this to Larder');
  await expect(sent.getByLabel('Selected element', { exact: true })).toContainText('Pantry');
  await expect(page.getByLabel('Selected element', { exact: true })).toHaveCount(1);
  await page.screenshot({ path: path.join(tmpdir(), 'kiln-screens', 'select-element-done.png') });
});

// SPEC §2 builder screen "settings panel": the project's name opens it; a rename shows in the
// toolbar at once; a delete, confirmed by typing the name, leaves for the projects list.
test('project settings: rename, then delete by typing the name', async ({ page, request }) => {
  test.setTimeout(240_000);
  const { id, auth } = await newProjectInBuilder(page, request, 'settings', 'Chores');
  // The toolbar (name, views, preview actions, Database, Theme, Plan & usage, Publish) fits a phone
  // and a laptop without scrolling sideways, the project's name readable.
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 812 });
    await expect(page.getByRole('button', { name: 'Project settings Chores' })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await page.screenshot({ path: path.join(tmpdir(), 'kiln-screens', `builder-toolbar-${width}.png`) });
  }
  await page.getByRole('button', { name: 'Project settings Chores' }).click();
  const dialog = page.getByRole('dialog', { name: 'Project settings' });
  await dialog.getByRole('textbox', { name: 'Project name' }).fill('House chores');
  await dialog.getByRole('button', { name: 'Save name' }).click();
  await expect(page.getByRole('button', { name: 'Project settings House chores' })).toBeVisible();
  expect(((await (await request.get(`/api/projects/${id}`, { headers: auth })).json()) as { name: string }).name).toBe('House chores');

  const remove = dialog.getByRole('button', { name: 'Delete project' });
  await dialog.getByRole('textbox', { name: "Type the project's name to delete it" }).fill('Chores');
  await expect(remove).toBeDisabled();
  await dialog.getByRole('textbox', { name: "Type the project's name to delete it" }).fill('House chores');
  await remove.click();
  await expect(page).toHaveURL(/\/$/, { timeout: 20_000 });
  expect((await request.get(`/api/projects/${id}`, { headers: auth })).status()).toBe(404);
});
