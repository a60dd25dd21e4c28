import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { newProjectInBuilder } from './helpers';

// Issue #17 item 8 against `npm start` (real sandbox): the file tree's New file, Rename and
// Delete go through the API, each saved as a version, and Export as zip downloads the project.

test('sandbox actions: create, rename, delete and export from the file tree', async ({ page, request }) => {
  test.setTimeout(180_000);
  const { id, auth } = await newProjectInBuilder(page, request, 'sandbox-actions', 'Sandbox actions');
  await page.getByRole('tab', { name: 'Code' }).click();
  const tree = page.getByRole('tree', { name: 'Files' });
  await expect(tree.getByRole('treeitem', { name: 'src' })).toBeVisible();

  // New file (in a new folder): the dialog checks the name first, then the file opens in the editor.
  await page.getByRole('button', { name: 'New file', exact: true }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Name').fill('node_modules/evil.js');
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(dialog.getByRole('alert')).toContainText('node_modules is managed by Kiln');
  await dialog.getByLabel('Name').fill('src/components/Hello.tsx');
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(dialog).toBeHidden();
  await expect(tree.getByRole('treeitem', { name: 'Hello.tsx' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Hello.tsx', exact: true })).toBeVisible(); // its editor tab

  // Rename (move) it.
  await tree.getByRole('treeitem', { name: 'Hello.tsx' }).hover();
  await page.getByRole('button', { name: 'Rename Hello.tsx' }).click();
  await dialog.getByLabel('New path').fill('src/components/Greeting.tsx');
  await dialog.getByRole('button', { name: 'Rename', exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(tree.getByRole('treeitem', { name: 'Greeting.tsx' })).toBeVisible();
  await expect(tree.getByRole('treeitem', { name: 'Hello.tsx' })).toHaveCount(0);
  const moved = await request.get(`/api/sandbox/${id}/read-file?path=src/components/Greeting.tsx`, { headers: auth });
  expect(moved.status()).toBe(200);

  // Delete asks first; Cancel keeps the file, Delete removes it.
  await tree.getByRole('treeitem', { name: 'Greeting.tsx' }).hover();
  await page.getByRole('button', { name: 'Delete Greeting.tsx' }).click();
  await expect(dialog).toContainText('will be deleted');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(tree.getByRole('treeitem', { name: 'Greeting.tsx' })).toBeVisible();
  await tree.getByRole('treeitem', { name: 'Greeting.tsx' }).hover();
  await page.getByRole('button', { name: 'Delete Greeting.tsx' }).click();
  await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(tree.getByRole('treeitem', { name: 'Greeting.tsx' })).toHaveCount(0);
  expect((await request.get(`/api/sandbox/${id}/read-file?path=src/components/Greeting.tsx`, { headers: auth })).status()).toBe(404);

  // Each action is a version.
  await page.getByRole('tab', { name: 'Versions' }).click();
  const versions = page.getByRole('list', { name: 'Versions' }).getByRole('listitem');
  await expect(versions.filter({ hasText: 'Delete src/components/Greeting.tsx' })).toBeVisible();
  await expect(versions.filter({ hasText: 'Rename src/components/Hello.tsx to src/components/Greeting.tsx' })).toBeVisible();
  await expect(versions.filter({ hasText: 'Create src/components/Hello.tsx' })).toBeVisible();

  // Export as zip: a download holding the project's files, not its installed packages.
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export as zip', exact: true }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('sandbox-actions.zip');
  const zip = await readFile((await download.path()) as string);
  expect(zip.subarray(0, 2).toString('latin1')).toBe('PK');
  const names = zip.toString('latin1');
  expect(names).toContain('src/App.tsx');
  expect(names).toContain('package.json');
  expect(names).not.toContain('node_modules/');

  // The API refuses what the tree never changes, whoever asks.
  const protectedPath = await request.post(`/api/sandbox/${id}/actions/delete`, { headers: auth, data: { path: 'node_modules' } });
  expect(protectedPath.status()).toBe(400);
  expect(((await protectedPath.json()) as { code: string }).code).toBe('SANDBOX.PATH_PROTECTED');
});
