import { mkdirSync } from 'node:fs';
import { type BrowserContext, type Page, expect, test } from '@playwright/test';
import { newEmail, newProjectInBuilder } from './helpers';

// Issue #16's journey in a real browser: connect a database in the builder, ask the offline
// assistant for a todo list with sign-in, then in the preview sign up two of the app's own users
// (the project's data origin, /auth/v1), add todos as each, and check after a reload that each
// sees only their own rows (row-level security through /rest/v1).

const SHOTS = '/tmp/data-journey';
const REQUEST = 'a todo list where each person signs in and sees only their own todos';

async function shot(page: Page, name: string) {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

/** Signs an app user up through the generated app's own sign-in screen. */
async function signUpInApp(app: Page, email: string, password: string) {
  await app.getByRole('button', { name: 'New here? Create an account' }).click();
  await expect(app.getByRole('heading', { name: 'Create your account' })).toBeVisible();
  await app.getByLabel('Email').fill(email);
  await app.getByLabel('Password').fill(password);
  await app.getByRole('button', { name: 'Sign up' }).click();
  await expect(app.getByText(`Signed in as ${email}`)).toBeVisible({ timeout: 20_000 });
}

/**
 * Clicks a button of the preview where a person sees it: the frame is scaled down to fit the pane
 * (CSS transform), which Playwright's own clicks inside frames do not follow.
 */
async function clickInPreview(page: Page, name: string) {
  const iframe = page.getByTitle('App preview');
  const frame = await (await iframe.elementHandle())?.contentFrame();
  const box = await iframe.boundingBox();
  if (!frame || !box) throw new Error('no preview frame');
  const scale = box.width / (await iframe.evaluate((el) => (el as HTMLElement).offsetWidth));
  const button = frame.getByRole('button', { name });
  await button.scrollIntoViewIfNeeded();
  const at = await button.evaluate((el) => {
    const r = el.getBoundingClientRect();
    return { x: r.x + r.width / 2, y: r.y + r.height / 2 };
  });
  await page.mouse.click(box.x + at.x * scale, box.y + at.y * scale);
}

/** Adds a todo and waits until the app lists it (the insert answered). */
async function addTodo(app: Page, title: string) {
  await app.getByLabel('New todo').fill(title);
  await app.getByRole('button', { name: 'Add todo' }).click();
  await expect(app.locator('.data-list > li').filter({ hasText: title })).toBeVisible();
}

/** A second browser with only the owner's cookies (the preview's access), not their app session. */
async function contextWithCookiesOf(context: BrowserContext): Promise<BrowserContext> {
  const browser = context.browser();
  if (!browser) throw new Error('no browser');
  const { cookies } = await context.storageState();
  return browser.newContext({ storageState: { cookies, origins: [] } });
}

// A failed run leaves what the builder showed, for whoever looks at it next.
test.afterEach(async ({ page }, info) => {
  if (info.status === info.expectedStatus) return;
  await shot(page, 'failed').catch(() => undefined);
  const log = await page.getByRole('log', { name: 'Conversation' }).innerText({ timeout: 1000 }).catch(() => '');
  await info.attach('conversation', { body: log, contentType: 'text/plain' });
  console.log(`Conversation at the failure:\n${log}`);
});

test('a database, a todo list with sign-in, and two app users who each see only their own todos', async ({ page, request, context }) => {
  test.setTimeout(240_000);
  const { id, preview } = await newProjectInBuilder(page, request, 'data', 'Shared chores');

  // Connect a database in the builder's Database panel.
  await page.getByRole('button', { name: 'Database' }).click();
  const dialog = page.getByRole('dialog', { name: 'Database' });
  await dialog.getByRole('button', { name: 'Connect a database' }).click();
  await expect(dialog.getByRole('status', { name: 'Database connected' })).toBeVisible({ timeout: 30_000 });
  await shot(page, '01-database-connected');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  // The connection file (.env.local) restarts the app's dev server; the preview still shows the app.
  await expect(preview.getByRole('heading', { name: 'Welcome to your Kiln app' })).toBeVisible({ timeout: 30_000 });

  // Ask the (offline) assistant for the data-backed todo list; the turn is kept.
  await page.getByRole('textbox', { name: 'Message the assistant' }).fill(REQUEST);
  await page.getByRole('button', { name: 'Send' }).click();
  const conversation = page.getByRole('log', { name: 'Conversation' });
  // A plan of several tasks waits for the owner: it is the data-backed app (the sign-in task).
  await expect(conversation.getByText('Build the task list with sign-in')).toBeVisible({ timeout: 60_000 });
  await conversation.getByRole('button', { name: 'Run plan' }).click();
  await expect(conversation.getByText('Kept as a new version').first()).toBeVisible({ timeout: 150_000 });

  // The preview shows the app's sign-in screen.
  await expect(preview.getByRole('heading', { name: 'Sign in' })).toBeVisible({ timeout: 60_000 });
  await shot(page, '02-preview-sign-in');
  // The app answers clicks in the builder's scaled preview: its sign-in screen turns to sign-up.
  await clickInPreview(page, 'New here? Create an account');
  await expect(preview.getByRole('heading', { name: 'Create your account' })).toBeVisible();
  const previewUrl = await page.getByTitle('App preview').getAttribute('src');
  expect(previewUrl).toMatch(new RegExp(`^http://${id}\\.preview\\.localhost:\\d+/`));

  // First app user, in the preview opened as a page of its own (a page is simpler to drive than
  // the builder's scaled frame).
  const password = 'app user password 1';
  const ana = newEmail('ana');
  const anaPage = await context.newPage();
  await anaPage.goto(previewUrl as string);
  await expect(anaPage.getByRole('heading', { name: 'Sign in' })).toBeVisible({ timeout: 20_000 });
  await signUpInApp(anaPage, ana, password);
  await expect(anaPage.getByText('No todos yet')).toBeVisible();
  await addTodo(anaPage, 'Water the plants');
  await addTodo(anaPage, 'Pay the rent');
  await shot(anaPage, '03-ana-todos');

  // Second app user, in another browser that only has the owner's preview access.
  const other = await contextWithCookiesOf(context);
  const bobPage = await other.newPage();
  await bobPage.goto(previewUrl as string);
  const bob = newEmail('bob');
  await expect(bobPage.getByRole('heading', { name: 'Sign in' })).toBeVisible({ timeout: 20_000 });
  await signUpInApp(bobPage, bob, password);
  await expect(bobPage.getByText('No todos yet')).toBeVisible();
  await addTodo(bobPage, 'Walk the dog');
  await shot(bobPage, '04-bob-todos');

  // After a reload each is still signed in and sees only their own rows.
  await anaPage.reload();
  await expect(anaPage.getByText(`Signed in as ${ana}`)).toBeVisible({ timeout: 20_000 });
  const anaRows = anaPage.locator('.data-list > li');
  await expect(anaRows).toHaveCount(2);
  await expect(anaRows.filter({ hasText: 'Water the plants' })).toBeVisible();
  await expect(anaRows.filter({ hasText: 'Pay the rent' })).toBeVisible();
  await expect(anaPage.getByText('Walk the dog')).toHaveCount(0);
  await shot(anaPage, '05-ana-after-reload');

  await bobPage.reload();
  await expect(bobPage.getByText(`Signed in as ${bob}`)).toBeVisible({ timeout: 20_000 });
  const bobRows = bobPage.locator('.data-list > li');
  await expect(bobRows).toHaveCount(1);
  await expect(bobRows).toContainText('Walk the dog');
  await expect(bobPage.getByText('Water the plants')).toHaveCount(0);
  await shot(bobPage, '06-bob-after-reload');

  // The builder's Database panel now lists the todos table, with row-level security on and its
  // three rows counted (the database's statistics reach the count within seconds: reopened until then).
  await page.bringToFront();
  const todosTable = dialog.getByRole('list', { name: 'Tables' }).getByRole('button', { name: /todos/ });
  await expect(async () => {
    if (await dialog.isVisible()) await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await page.getByRole('button', { name: 'Database' }).click();
    await expect(todosTable).toContainText('about 3 rows', { timeout: 3000 });
  }).toPass({ timeout: 30_000 });
  await expect(todosTable).toContainText('RLS on');
  await shot(page, '07-builder-tables');
  await other.close();
});
