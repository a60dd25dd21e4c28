import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { continueProfileSetup, newEmail, signUpAndVerify } from './helpers';

// Issue 18 item 3, on a fresh `npm start` with the offline assistant: the person attaches an
// image to the prompt "use this as the logo"; the file is stored under the project, placed in
// the app's public/attachments/, and the app's header shows it.

// A 24×24 PNG, solid orange.
const LOGO_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAABgAAAAYCAIAAABvFaqvAAAAIElEQVR4nGP438NAFUQdU0YNGjVo1KBRg0YNGjWIIgQAJ/R47tYy4/cAAAAASUVORK5CYII=',
  'base64',
);

test('attach an image to “use this as the logo”: the app’s header shows it', async ({ page, request }) => {
  test.setTimeout(300_000);
  await page.goto('/');
  await page.getByRole('textbox', { name: 'Describe the app you want to build' }).fill('A landing page for my bakery, called Crumb');
  await page.getByRole('button', { name: 'Build it' }).click();
  await signUpAndVerify(page, request, newEmail('attach'), 'correct horse battery');
  await continueProfileSetup(page);
  await expect(page).toHaveURL(/\/builder\/[0-9a-f-]{36}$/, { timeout: 90_000 });
  const conversation = page.getByRole('log', { name: 'Conversation' });
  await expect(conversation.getByText('Kept as a new version').first()).toBeVisible({ timeout: 120_000 });
  const preview = page.frameLocator('iframe[title="App preview"]');
  await expect(preview.getByRole('banner')).toBeVisible({ timeout: 60_000 });

  // A file of another kind is refused in words, and can be removed.
  const input = page.getByLabel('Files to attach');
  await input.setInputFiles({ name: 'setup.exe', mimeType: 'application/x-msdownload', buffer: Buffer.from('MZ') });
  const pending = page.getByRole('list', { name: 'Attached files' });
  await expect(pending.getByRole('alert')).toHaveText('“setup.exe” can’t be attached: only images (PNG, JPEG, GIF, WebP, SVG), text, Markdown, CSV and PDF files can.');
  await pending.getByRole('button', { name: 'Remove setup.exe' }).click();
  await expect(pending).toHaveCount(0);

  // Pasted into the message box, or dropped on the composer: a chip each, until removed.
  const textbox = page.getByRole('textbox', { name: 'Message the assistant' });
  for (const [how, name] of [['paste', 'pasted.png'], ['drop', 'dropped.png']] as const) {
    const transfer = await page.evaluateHandle(
      ([bytes, fileName]) => {
        const data = new DataTransfer();
        data.items.add(new File([Uint8Array.from(atob(bytes), (c) => c.charCodeAt(0))], fileName, { type: 'image/png' }));
        return data;
      },
      [LOGO_PNG.toString('base64'), name] as const,
    );
    if (how === 'paste') await textbox.evaluate((el, data) => el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true })), transfer);
    else await textbox.dispatchEvent('drop', { dataTransfer: transfer });
    const item = pending.getByRole('listitem', { name });
    await expect(item).toBeVisible();
    await expect(item.getByLabel('Uploading')).toHaveCount(0, { timeout: 20_000 });
    await item.getByRole('button', { name: `Remove ${name}` }).click();
    await expect(pending).toHaveCount(0);
  }

  // The image, picked with the paperclip's file input: uploaded at once, shown as a chip.
  await input.setInputFiles({ name: 'crumb-logo.png', mimeType: 'image/png', buffer: LOGO_PNG });
  const chip = pending.getByRole('listitem', { name: 'crumb-logo.png' });
  await expect(chip).toBeVisible();
  await expect(chip.getByLabel('Uploading')).toHaveCount(0, { timeout: 20_000 });
  await expect(pending.getByRole('alert')).toHaveCount(0);
  // Its thumbnail is the image itself, before anything is sent.
  await expect.poll(() => chip.locator('img').evaluate((img: HTMLImageElement) => (img.complete ? img.naturalWidth : 0))).toBe(24);

  await textbox.fill('use this as the logo');
  await page.screenshot({ path: path.join(tmpdir(), 'kiln-screens', 'attachments.png') });
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(pending).toHaveCount(0);
  await expect(conversation.getByText('Kept as a new version')).toHaveCount(2, { timeout: 120_000 });

  // The sent message shows its file; the preview's header shows the image, loaded from /attachments/.
  const sent = conversation.getByRole('article', { name: 'User message' }).last();
  await expect(sent).toContainText('use this as the logo');
  await expect(sent.getByRole('list', { name: 'Files in this message' })).toContainText('crumb-logo.png');
  const logo = preview.getByRole('banner').getByRole('img', { name: 'Crumb logo' });
  await expect(logo).toBeVisible({ timeout: 60_000 });
  await expect(logo).toHaveAttribute('src', /^\/attachments\/crumb-logo-[0-9a-f]{8}\.png$/);
  await expect.poll(() => logo.evaluate((img: HTMLImageElement) => (img.complete ? img.naturalWidth : 0)), { timeout: 30_000 }).toBe(24);
  await page.screenshot({ path: path.join(tmpdir(), 'kiln-screens', 'attachments-done.png') });
});
