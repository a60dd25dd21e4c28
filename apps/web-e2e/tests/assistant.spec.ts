import { expect, test } from '@playwright/test';
import { accessToken, continueProfileSetup, newEmail, signUpAndVerify } from './helpers';

// Issue 6's journey on a fresh `npm start` (offline assistant, real sandbox and preview): an idea
// typed on the landing page → sign-up → the project is created and built by the assistant → the
// preview shows the app → an edit → the preview changes and a new version appears → the credits
// left went down by exactly the number of prompts (one per task).

interface TurnRow {
  status: string;
  plan: { tasks: unknown[] } | null;
  commit_hash: string | null;
}

test('an idea becomes a working app, an edit changes it, credits follow the prompts', async ({ page, request }) => {
  test.setTimeout(240_000);
  await page.goto('/');
  await page.getByRole('textbox', { name: 'Describe the app you want to build' }).fill('A todo list app called Chores');
  await page.getByRole('button', { name: 'Build it' }).click();
  await expect(page).toHaveURL(/\/get-started/);
  await signUpAndVerify(page, request, newEmail('assistant'), 'correct horse battery');
  await continueProfileSetup(page);

  // Creation → builder; the saved idea is the first turn, built at once.
  await expect(page).toHaveURL(/\/builder\/[0-9a-f-]{36}$/, { timeout: 90_000 });
  const projectId = /\/builder\/([0-9a-f-]{36})$/.exec(page.url())?.[1] as string;
  const auth = { authorization: `Bearer ${await accessToken(page)}` };
  const conversation = page.getByRole('log', { name: 'Conversation' });
  await expect(conversation.getByRole('article', { name: 'User message' }).first()).toContainText('A todo list app called Chores');
  await expect(conversation.getByText('Kept as a new version').first()).toBeVisible({ timeout: 120_000 });

  // The preview shows the generated app.
  const preview = page.frameLocator('iframe[title="App preview"]');
  await expect(preview.getByText('Chores').first()).toBeVisible({ timeout: 60_000 });

  // An edit: the preview changes and a new version is in the history.
  const history = async () => (await (await request.get(`/api/projects/${projectId}/turns`, { headers: auth })).json()) as TurnRow[];
  const versionsBefore = ((await (await request.get(`/api/sandbox/${projectId}/git/history`, { headers: auth })).json()) as unknown[]).length;
  await page.getByRole('textbox', { name: 'Message the assistant' }).fill('Change the title to Errands');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(conversation.getByText('Kept as a new version')).toHaveCount(2, { timeout: 120_000 });
  await expect(preview.getByText('Errands').first()).toBeVisible({ timeout: 30_000 });
  const versions = (await (await request.get(`/api/sandbox/${projectId}/git/history`, { headers: auth })).json()) as Array<{ message: string }>;
  expect(versions.length).toBe(versionsBefore + 1);
  expect(versions[0]?.message).toBe('Change the title to Errands');
  await page.getByRole('tab', { name: 'Versions' }).click();
  await expect(page.getByRole('list', { name: 'Versions' }).getByRole('listitem').first()).toContainText('Change the title to Errands');

  // Credits: the free plan's 5, less one per task the two kept turns ran.
  const turns = await history();
  expect(turns.map((turn) => turn.status)).toEqual(['kept', 'kept']);
  const prompts = turns.reduce((sum, turn) => sum + Math.max(1, turn.plan?.tasks.length ?? 1), 0);
  const usage = (await (await request.get('/api/usage', { headers: auth })).json()) as { credits_remaining: number; prompts_used: number };
  expect(usage.prompts_used).toBe(prompts);
  expect(usage.credits_remaining).toBe(5 - prompts);
  const left = 5 - prompts;
  await page.getByRole('tab', { name: 'Chat' }).click();
  await expect(page.getByText(left === 0 ? 'No credits left' : `${left} credit${left === 1 ? '' : 's'} left`)).toBeVisible();
});
