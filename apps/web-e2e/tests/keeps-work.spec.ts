import { type APIRequestContext, expect, test } from '@playwright/test';
import { accessToken, continueProfileSetup, newEmail, signUpAndVerify } from './helpers';

// Issue 14's journey on a fresh `npm start` (offline assistant, real sandbox and preview): the
// assistant keeps the person's work. A first build, then three different edit requests: the app's
// name and a file the person wrote survive each. A request for a new app waits behind a warning
// and changes nothing until confirmed; one it cannot do as an edit is declined free. The Problems
// panel follows file changes on its own. Stop puts the app back as it was. A reload in the
// middle of a turn shows the turn's result, not "Still working".

const NOTES = 'src/notes.md';
const NOTES_TEXT = 'My own notes: buy saffron before Friday.\n';

type Headers = Record<string, string>;

async function readFile(request: APIRequestContext, auth: Headers, id: string, path: string): Promise<string | null> {
  const response = await request.get(`/api/sandbox/${id}/read-file?path=${encodeURIComponent(path)}`, { headers: auth });
  return response.status() === 200 ? ((await response.json()) as { content: string }).content : null;
}

/** Every file path of the project (the tree, flattened). */
async function filePaths(request: APIRequestContext, auth: Headers, id: string): Promise<string[]> {
  type Entry = { path: string; type: string; children?: Entry[] };
  const tree = (await (await request.get(`/api/sandbox/${id}/get-tree`, { headers: auth })).json()) as Entry[];
  const walk = (entries: Entry[]): string[] => entries.flatMap((e) => (e.type === 'file' ? [e.path] : walk(e.children ?? [])));
  return walk(tree).sort();
}

async function credits(request: APIRequestContext, auth: Headers): Promise<number> {
  return ((await (await request.get('/api/usage', { headers: auth })).json()) as { credits_remaining: number }).credits_remaining;
}

test("the assistant keeps the person's work: edits stay edits, a new app needs a confirmed warning, Problems follow, Stop, reload", async ({ page, request }) => {
  test.setTimeout(480_000);
  await page.goto('/');
  await page.getByRole('textbox', { name: 'Describe the app you want to build' }).fill('A recipe finder where I can save favourite recipes, called Pantry');
  await page.getByRole('button', { name: 'Build it' }).click();
  await signUpAndVerify(page, request, newEmail('keeps-work'), 'correct horse battery');
  await continueProfileSetup(page);
  await expect(page).toHaveURL(/\/builder\/[0-9a-f-]{36}$/, { timeout: 90_000 });
  const id = /\/builder\/([0-9a-f-]{36})$/.exec(page.url())?.[1] as string;
  const auth = { authorization: `Bearer ${await accessToken(page)}` };
  const conversation = page.getByRole('log', { name: 'Conversation' });
  const kept = conversation.getByText('Kept as a new version');
  await expect(kept.first()).toBeVisible({ timeout: 120_000 });
  const preview = page.frameLocator('iframe[title="App preview"]');
  await expect(preview.getByText('Pantry').first()).toBeVisible({ timeout: 60_000 });

  // Enough credits for the journey: one add-on pack through the local test checkout, in a second tab.
  const link = ((await (await request.post('/api/payment/create-payment-link', { headers: auth })).json()) as { paymentLink: string }).paymentLink;
  const checkout = await page.context().newPage();
  await checkout.goto(link);
  await checkout.getByRole('button', { name: 'Pay' }).click();
  await expect.poll(async () => ((await (await request.get('/api/profile', { headers: auth })).json()) as { extra_credits: number }).extra_credits, { timeout: 20_000 }).toBe(500);
  await checkout.close();

  // A file of the person's own.
  expect((await request.post(`/api/sandbox/${id}/write-file`, { headers: auth, data: { path: NOTES, content: NOTES_TEXT } })).status()).toBe(200);

  const message = page.getByRole('textbox', { name: 'Message the assistant' });
  const send = async (text: string) => {
    await message.fill(text);
    await page.getByRole('button', { name: 'Send' }).click();
  };
  const turns = async () => (await (await request.get(`/api/projects/${id}/turns`, { headers: auth })).json()) as Array<{ status: string; message: string }>;
  /** Waits until the newest turn is `text`'s and kept (running its plan when it waits for Run plan). */
  const untilKept = async (text: string) => {
    await expect(async () => {
      const run = page.getByRole('button', { name: 'Run plan' });
      if (await run.isVisible()) await run.click();
      expect((await turns()).at(-1)).toMatchObject({ message: text, status: 'kept' });
    }).toPass({ timeout: 120_000 });
  };
  const keep = async (text: string) => {
    await send(text);
    await untilKept(text);
  };

  // Three different edits: each is an edit of Pantry, and the person's file survives each.
  for (const edit of ['save my favourite recipes with a heart button', 'add a dark mode toggle', 'add an About page']) {
    await keep(edit);
    expect(await readFile(request, auth, id, NOTES)).toBe(NOTES_TEXT);
    await expect(preview.getByText('Pantry').first()).toBeVisible({ timeout: 30_000 });
  }
  // What they asked for is there: a heart button and a working dark mode toggle.
  await expect(preview.getByRole('button', { name: /favourite/i }).first()).toBeVisible({ timeout: 30_000 });
  // The toggle switches the app to dark and back (the preview may still be reloading after the last
  // edit: retried). At Mobile size the preview is not scaled down, so pointer clicks land where
  // Playwright computes them (it does not follow a CSS-scaled iframe).
  await page.getByRole('button', { name: 'Mobile' }).click();
  const html = preview.locator('html');
  await expect(async () => {
    const toggle = preview.getByRole('button', { name: /Switch to (dark|light) mode/ }).first();
    const toDark = ((await toggle.getAttribute('aria-label')) ?? '').includes('dark');
    await toggle.click({ timeout: 2000 });
    await expect(html).toHaveClass(toDark ? /(^|\s)dark(\s|$)/ : /^(?!.*(^|\s)dark(\s|$))/, { timeout: 2000 });
    await expect(preview.getByRole('button', { name: toDark ? 'Switch to light mode' : 'Switch to dark mode' })).toBeVisible({ timeout: 2000 });
  }).toPass({ timeout: 30_000 });

  // A new app waits behind a warning; cancelled, nothing changes and nothing is charged.
  const files = await filePaths(request, auth, id);
  const creditsBefore = await credits(request, auth);
  await send('Start over with a new app: a weather dashboard called Skies');
  await expect(conversation.getByText('This replaces your current app')).toBeVisible({ timeout: 60_000 });
  await expect(page.getByRole('button', { name: 'Replace my app' })).toBeVisible();
  await page.getByRole('button', { name: 'Cancel plan' }).click();
  await expect(page.getByRole('button', { name: 'Replace my app' })).toBeHidden();
  expect(await filePaths(request, auth, id)).toEqual(files);
  expect(await credits(request, auth)).toBe(creditsBefore);
  await expect(preview.getByText('Pantry').first()).toBeVisible();

  // A request it cannot do as an edit is declined, free, with an honest answer.
  await send('turn this into a multiplayer chess game with voice chat');
  await expect(conversation.getByText('no credit was used').last()).toBeVisible({ timeout: 60_000 });
  expect(await credits(request, auth)).toBe(creditsBefore);
  expect(await filePaths(request, auth, id)).toEqual(files);

  // The Problems panel follows file changes without "Check for errors".
  const problems = page.getByRole('region', { name: 'Problems' });
  const broken = { path: 'src/broken.ts', content: "export const count: number = 'many';\n" };
  expect((await request.post(`/api/sandbox/${id}/write-file`, { headers: auth, data: broken })).status()).toBe(200);
  await expect(problems).toContainText('1 error', { timeout: 60_000 });
  expect((await request.delete(`/api/sandbox/${id}/delete-file?path=${encodeURIComponent(broken.path)}`, { headers: auth })).status()).toBe(200);
  await expect(problems).toContainText('0 errors', { timeout: 60_000 });

  // Stop: the turn is reverted, the app is as it was.
  const beforeStop = await filePaths(request, auth, id);
  await send('add a FAQ page');
  await page.getByRole('button', { name: 'Stop' }).click({ timeout: 30_000 });
  await expect(conversation.getByText('Stopped. Your app is as it was before this message')).toBeVisible({ timeout: 60_000 });
  expect(await filePaths(request, auth, id)).toEqual(beforeStop);
  expect(await readFile(request, auth, id, NOTES)).toBe(NOTES_TEXT);

  // A reload in the middle of a turn shows the turn's result once it ends.
  await send('add a contact form');
  await expect(page.getByRole('button', { name: 'Stop' })).toBeVisible({ timeout: 30_000 });
  await page.reload();
  await untilKept('add a contact form');
  const lastReply = conversation.getByRole('article', { name: 'Assistant message' }).last();
  await expect(lastReply).toContainText(/Kept as a new version|nothing in your project needed to change/, { timeout: 30_000 });
  await expect(conversation.getByText('Still working on this')).toHaveCount(0);
  expect(await readFile(request, auth, id, NOTES)).toBe(NOTES_TEXT);
  await expect(preview.getByText('Pantry').first()).toBeVisible({ timeout: 30_000 });
});
