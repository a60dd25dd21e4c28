import { expect, test } from '@playwright/test';
import { accessToken, continueProfileSetup, newEmail, signUpAndVerify } from './helpers';

// A signed-in person finds their projects on the home page: open, rename, delete.
test('home lists your projects: rename one, delete one (it no longer counts), open one in the builder', async ({ page, request }) => {
  await signUpAndVerify(page, request, newEmail('projects'), 'correct horse battery');
  await continueProfileSetup(page);
  const auth = { authorization: `Bearer ${await accessToken(page)}` };
  for (const name of ['Chores', 'Bean There', 'Jot']) {
    expect((await request.post('/api/projects', { headers: auth, data: { name } })).status()).toBe(201);
  }

  await page.goto('/');
  const projects = page.getByRole('region', { name: 'Your projects' });
  await expect(projects.getByRole('link')).toHaveText(['Jot', 'Bean There', 'Chores']);
  await expect(projects.getByText('3 projects')).toBeVisible();

  // Rename.
  await projects.getByRole('button', { name: 'Rename Bean There' }).click();
  const renameDialog = page.getByRole('dialog', { name: 'Rename project' });
  await renameDialog.getByLabel('Name').fill('Roast & Co');
  await renameDialog.getByRole('button', { name: 'Save' }).click();
  await expect(renameDialog).toBeHidden();
  await expect(projects.getByRole('link', { name: 'Roast & Co' })).toBeVisible();

  // Delete: the free plan's three private projects were all used; after the delete a new one fits.
  expect((await request.post('/api/projects', { headers: auth, data: { name: 'Fourth' } })).status()).toBe(402);
  await projects.getByRole('button', { name: 'Delete Chores' }).click();
  await page.getByRole('dialog', { name: 'Delete “Chores”?' }).getByRole('button', { name: 'Delete project' }).click();
  await expect(projects.getByRole('link', { name: 'Chores' })).toHaveCount(0);
  await expect(projects.getByText('2 projects')).toBeVisible();
  const names = ((await (await request.get('/api/projects', { headers: auth })).json()) as { name: string }[]).map((p) => p.name).sort();
  expect(names).toEqual(['Jot', 'Roast & Co']);
  expect((await request.post('/api/projects', { headers: auth, data: { name: 'Fourth' } })).status()).toBe(201);

  // Open one: the builder of that project.
  await page.reload();
  await projects.getByRole('link', { name: 'Jot' }).click();
  await expect(page).toHaveURL(/\/builder\/[0-9a-f-]{36}$/);
});
