import { type APIRequestContext, type Page, expect } from '@playwright/test';

/** A fresh address per run, so tests never collide on a reused server. */
export const newEmail = (label: string): string => `${label}-${Date.now().toString(36)}-${Math.floor(Math.random() * 1e6)}@example.com`;

/** The newest mailed code for this address, from the dev outbox. */
export async function codeFromOutbox(request: APIRequestContext, email: string): Promise<string> {
  let code: string | null = null;
  await expect
    .poll(async () => {
      const response = await request.get(`/api/dev/outbox?email=${encodeURIComponent(email)}`);
      const mails = (await response.json()) as Array<{ subject: string }>;
      code = mails[0] ? (/(\d{6})/.exec(mails[0].subject)?.[1] ?? null) : null;
      return code;
    })
    .not.toBeNull();
  return code as unknown as string;
}

/** Signs up through the screens and verifies with the mailed code; ends on /profile-setup. */
export async function signUpAndVerify(page: Page, request: APIRequestContext, email: string, password: string, name = 'Ana Tester') {
  await page.goto('/signup');
  const main = page.getByRole('main');
  await main.getByLabel('Name').fill(name);
  await main.getByLabel('Email').fill(email);
  await main.getByLabel('Password').fill(password);
  await main.getByRole('button', { name: 'Create account' }).click();
  await expect(page).toHaveURL(/\/verify\?email=/);
  const code = await codeFromOutbox(request, email);
  await page.getByLabel('Verification code').fill(code);
  await expect(page).toHaveURL(/\/profile-setup/);
}

/** The access token auth-js keeps in localStorage. */
export async function accessToken(page: Page): Promise<string> {
  const raw = await page.evaluate(() => localStorage.getItem('kiln.auth'));
  expect(raw).not.toBeNull();
  return (JSON.parse(raw as string) as { access_token: string }).access_token;
}

/** Leaves /profile-setup with Continue (retried: a click before the page is ready does nothing). */
export async function continueProfileSetup(page: Page) {
  await expect(async () => {
    await page.getByRole('main').getByRole('button', { name: 'Continue' }).click({ timeout: 2000 });
    await expect(page).not.toHaveURL(/profile-setup/, { timeout: 3000 });
  }).toPass({ timeout: 30_000 });
}

/** What a new project in the builder test journeys starts from. */
export const STARTER_TEXT = 'Welcome to your Kiln app';

/**
 * A new account (signed up, verified, past profile setup) with a new project named `name`, opened
 * through /creation into the builder, its sandbox running and the starter app in the preview.
 */
export async function newProjectInBuilder(page: Page, request: APIRequestContext, emailLabel: string, name: string) {
  await signUpAndVerify(page, request, newEmail(emailLabel), 'correct horse battery');
  await continueProfileSetup(page);
  const auth = { authorization: `Bearer ${await accessToken(page)}` };
  const created = await request.post('/api/projects', { headers: auth, data: { name } });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  // Creation runs the SPEC §4 stages, then the builder opens with the starter app in the preview.
  await page.goto(`/creation/${id}`);
  await expect(page).toHaveURL(new RegExp(`/builder/${id}$`), { timeout: 90_000 });
  await expect(page.getByRole('status', { name: 'Sandbox status' })).toContainText('Running', { timeout: 60_000 });
  const preview = page.frameLocator('iframe[title="App preview"]');
  await expect(preview.getByRole('heading', { name: STARTER_TEXT })).toBeVisible({ timeout: 60_000 });
  return { id, auth, preview };
}
