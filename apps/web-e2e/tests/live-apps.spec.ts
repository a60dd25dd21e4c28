import { tmpdir } from 'node:os';
import path from 'node:path';
import { type BrowserContext, type Page, expect, test } from '@playwright/test';
import { newEmail, newProjectInBuilder } from './helpers';

// Issue #18's bar in a real browser: with a database connected, the offline assistant builds a
// guest book that updates live; two app users in two browser contexts, and an entry written in
// one appears in the other without a reload (realtime postgres_changes through the data origin).

const REQUEST = 'A guest book for our wedding that updates live';

async function signUpInApp(app: Page, email: string, password: string) {
  await app.getByRole('button', { name: 'New here? Create an account' }).click();
  await app.getByLabel('Email').fill(email);
  await app.getByLabel('Password').fill(password);
  await app.getByRole('button', { name: 'Sign up' }).click();
  await expect(app.getByText(`Signed in as ${email}`)).toBeVisible({ timeout: 20_000 });
}

/** A second browser with only the owner's cookies (the preview's access), not their app session. */
async function contextWithCookiesOf(context: BrowserContext): Promise<BrowserContext> {
  const browser = context.browser();
  if (!browser) throw new Error('no browser');
  const { cookies } = await context.storageState();
  return browser.newContext({ storageState: { cookies, origins: [] } });
}

test.afterEach(async ({ page }, info) => {
  if (info.status === info.expectedStatus) return;
  const log = await page.getByRole('log', { name: 'Conversation' }).innerText({ timeout: 1000 }).catch(() => '');
  console.log(`Conversation at the failure:\n${log}`);
});

test('a live guest book: an entry signed in one browser appears in another without a reload', async ({ page, request, context }) => {
  test.setTimeout(240_000);
  await newProjectInBuilder(page, request, 'live', 'Wedding guests');

  await page.getByRole('button', { name: 'Database' }).click();
  const dialog = page.getByRole('dialog', { name: 'Database' });
  await dialog.getByRole('button', { name: 'Connect a database' }).click();
  await expect(dialog.getByRole('status', { name: 'Database connected' })).toBeVisible({ timeout: 30_000 });
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  await page.getByRole('textbox', { name: 'Message the assistant' }).fill(REQUEST);
  await page.getByRole('button', { name: 'Send' }).click();
  const conversation = page.getByRole('log', { name: 'Conversation' });
  await expect(conversation.getByText('Build the live guest book with sign-in')).toBeVisible({ timeout: 60_000 });
  await conversation.getByRole('button', { name: 'Run plan' }).click();
  await expect(conversation.getByText('Kept as a new version').first()).toBeVisible({ timeout: 150_000 });
  const preview = page.frameLocator('iframe[title="App preview"]');
  await expect(preview.getByRole('heading', { name: 'Sign in' })).toBeVisible({ timeout: 60_000 });
  const previewUrl = (await page.getByTitle('App preview').getAttribute('src')) as string;

  const password = 'app user password 1';
  const ana = await context.newPage();
  await ana.goto(previewUrl);
  await signUpInApp(ana, newEmail('ana'), password);
  await expect(ana.getByText('Live: new entries appear as they are written.')).toBeVisible({ timeout: 20_000 });

  const other = await contextWithCookiesOf(context);
  const bob = await other.newPage();
  await bob.goto(previewUrl);
  await signUpInApp(bob, newEmail('bob'), password);
  await expect(bob.getByText('Live: new entries appear as they are written.')).toBeVisible({ timeout: 20_000 });
  await expect(bob.getByText('No entries yet')).toBeVisible();

  // Ana signs; Bob's page shows it with no reload.
  await ana.getByLabel('Your name').fill('Ana');
  await ana.getByLabel('Message').fill('Congratulations to you both!');
  await ana.getByRole('button', { name: 'Sign the guest book' }).click();
  const bobEntries = bob.getByRole('list', { name: 'Guest book entries' });
  await expect(bobEntries.getByText('Congratulations to you both!')).toBeVisible({ timeout: 15_000 });
  await expect(bobEntries.getByText('Ana', { exact: true })).toBeVisible();
  await bob.screenshot({ path: path.join(tmpdir(), 'kiln-screens', 'guestbook-live-second-window.png'), fullPage: true });

  // And back: Bob signs, Ana sees it.
  await bob.getByLabel('Your name').fill('Bob');
  await bob.getByLabel('Message').fill('See you at the party');
  await bob.getByRole('button', { name: 'Sign the guest book' }).click();
  await expect(ana.getByRole('list', { name: 'Guest book entries' }).getByText('See you at the party')).toBeVisible({ timeout: 15_000 });
  // Only the author may delete: Bob sees no Delete button on Ana's entry.
  await expect(bobEntries.getByRole('button', { name: 'Delete the entry by Ana' })).toHaveCount(0);
  await other.close();
});
