import { type Frame, type Page, expect, test } from '@playwright/test';
import { STARTER_TEXT, accessToken, continueProfileSetup, newEmail, newProjectInBuilder, signUpAndVerify } from './helpers';

// Issue 5's builder journey against `npm start` (real sandbox, real Vite dev server behind the
// API's preview proxy): the starter app shows, an edit reaches the preview by HMR (no reload), the
// terminal runs `ls`, and restoring the first version brings the old text back.


/** The preview iframe's frame (its own origin, <projectId>.preview.localhost). */
async function previewFrame(page: Page): Promise<Frame> {
  const handle = await page.getByTitle('App preview').elementHandle();
  const frame = await handle?.contentFrame();
  if (!frame) throw new Error('no preview frame');
  return frame;
}

test('builder: preview, HMR edit, code viewer, terminal, versions and restore', async ({ page, request }) => {
  test.setTimeout(180_000);
  const { id, auth, preview } = await newProjectInBuilder(page, request, 'builder', 'Builder journey');
  expect(new URL((await previewFrame(page)).url()).hostname).toBe(`${id}.preview.localhost`);

  // Device sizes set the app's viewport width.
  await page.getByRole('button', { name: 'Mobile' }).click();
  await expect.poll(async () => (await previewFrame(page)).evaluate(() => window.innerWidth)).toBe(375);
  await page.getByRole('button', { name: 'Tablet' }).click();
  await expect.poll(async () => (await previewFrame(page)).evaluate(() => window.innerWidth)).toBe(768);
  await page.getByRole('button', { name: 'Desktop' }).click();

  // An edit through write-file reaches the preview without a reload: a marker set on the preview's
  // window survives (a reload would wipe it) while the text changes (Vite HMR through the proxy).
  const frame = await previewFrame(page);
  await frame.evaluate(() => ((window as unknown as { kilnMarker: number }).kilnMarker = 42));
  const app = await request.get(`/api/sandbox/${id}/read-file?path=src/App.tsx`, { headers: auth });
  const original = ((await app.json()) as { content: string }).content;
  expect(original).toContain(STARTER_TEXT);
  const edited = original.replace(STARTER_TEXT, 'Hello from hot reload');
  const write = await request.post(`/api/sandbox/${id}/write-file`, { headers: auth, data: { path: 'src/App.tsx', content: edited } });
  expect(write.status()).toBe(200);
  await expect(preview.getByRole('heading', { name: 'Hello from hot reload' })).toBeVisible({ timeout: 20_000 });
  expect(await (await previewFrame(page)).evaluate(() => (window as unknown as { kilnMarker?: number }).kilnMarker)).toBe(42);

  // Save this state as a version.
  await page.getByRole('tab', { name: 'Versions' }).click();
  await page.getByRole('textbox', { name: 'Describe this version' }).fill('Hot reload text');
  await page.getByRole('button', { name: 'Save version' }).click();
  const versions = page.getByRole('list', { name: 'Versions' }).getByRole('listitem');
  await expect(versions.filter({ hasText: 'Hot reload text' })).toBeVisible();

  // The code viewer shows the file; an edit there and Save reach the preview as well.
  await page.getByRole('tab', { name: 'Code' }).click();
  await page.getByRole('treeitem', { name: 'src' }).click();
  await page.getByRole('treeitem', { name: 'App.tsx' }).click();
  const editor = page.getByLabel('Code editor');
  await expect(editor).toContainText('Hello from hot reload');
  await editor.click();
  await page.keyboard.press('ControlOrMeta+End');
  await page.keyboard.type('\n// edited in the code viewer\n');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect
    .poll(async () => ((await (await request.get(`/api/sandbox/${id}/read-file?path=src/App.tsx`, { headers: auth })).json()) as { content: string }).content)
    .toContain('// edited in the code viewer');

  // The terminal runs `ls` in the project.
  const terminal = page.getByRole('group', { name: 'Terminal' });
  await terminal.click();
  await page.getByLabel('Terminal input').pressSequentially('ls\n');
  await expect(terminal).toContainText('package.json', { timeout: 30_000 });
  await expect(terminal).toContainText('vite.config.ts');

  // The theme builder applies a preset to the project's stylesheet as a new version.
  await page.getByRole('button', { name: 'Theme' }).click();
  const themeDialog = page.getByRole('dialog', { name: 'Theme builder' });
  await themeDialog.getByRole('button', { name: 'Ocean' }).click();
  await themeDialog.getByRole('button', { name: 'Apply theme' }).click();
  await expect(themeDialog).toBeHidden();
  await expect
    .poll(async () => ((await (await request.get(`/api/sandbox/${id}/git/history`, { headers: auth })).json()) as Array<{ message: string }>)[0]?.message)
    .toBe('Apply theme Ocean');
  const css = ((await (await request.get(`/api/sandbox/${id}/read-file?path=src/index.css`, { headers: auth })).json()) as { content: string }).content;
  expect(css).toContain('--font-sans');

  // Restoring the first version brings the starter text back, in the files and in the preview.
  await page.getByRole('tab', { name: 'Preview' }).click();
  await page.getByRole('tab', { name: 'Versions' }).click();
  const first = versions.last();
  await expect(first).toContainText('Initial version');
  await first.getByRole('button', { name: 'Restore' }).click();
  await page.getByRole('button', { name: 'Yes, restore' }).click();
  await expect(preview.getByRole('heading', { name: STARTER_TEXT })).toBeVisible({ timeout: 30_000 });
  // History is kept: the restore is a new version on top, the edited version is still listed.
  await expect(versions.filter({ hasText: 'Hot reload text' })).toBeVisible();
  await expect(versions.first()).toContainText('Restore');
});

test('another user cannot open the sandbox or its preview', async ({ page, request, browser }) => {
  await signUpAndVerify(page, request, newEmail('owner'), 'correct horse battery');
  await continueProfileSetup(page);
  const owner = { authorization: `Bearer ${await accessToken(page)}` };
  const { id } = (await (await request.post('/api/projects', { headers: owner, data: { name: 'Private' } })).json()) as { id: string };
  expect((await request.post(`/api/sandbox/${id}/ensure`, { headers: owner })).status()).toBe(200);

  const other = await browser.newContext();
  const otherPage = await other.newPage();
  await signUpAndVerify(otherPage, request, newEmail('stranger'), 'correct horse battery');
  const stranger = { authorization: `Bearer ${await accessToken(otherPage)}` };
  expect((await request.get(`/api/sandbox/${id}/read-file?path=src/App.tsx`, { headers: stranger })).status()).toBe(404);
  // The preview origin without the owner's preview cookie answers 401, not the app.
  const port = new URL(page.url()).port;
  const response = await otherPage.goto(`http://${id}.preview.localhost:${port}/`);
  expect(response?.status()).toBe(401);
  await other.close();
});
