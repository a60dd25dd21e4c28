import { expect, test } from '@playwright/test';
import { newEmail, signUpAndVerify } from './helpers';

// SPEC §2's pages that no journey passes through, opened as a visitor would (§6: they are public),
// each with its own heading and without a script error; an unmatched path is §8's 404.
const PUBLIC_PAGES: readonly (readonly [string, string])[] = [
  ['/contact-us', 'Talk to a human'],
  ['/legal/terms-of-service', 'Terms of Service'],
  ['/legal/privacy-policy', 'Privacy Policy'],
  ['/legal/cookies-policy', 'Cookies Policy'],
  ['/legal/cancellation-refund-policy', 'Cancellation & Refund Policy'],
];

test('the public pages open for a visitor, each with its heading and no script error', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  for (const [path, heading] of PUBLIC_PAGES) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`${path}$`)); // not sent to sign in
  }
  await page.goto('/pitch-deck-gbm-jh-sss');
  await expect(page.getByRole('heading', { name: 'Software, from a sentence' })).toBeVisible();
  await expect(page).toHaveURL(/\/pitch-deck-gbm-jh-sss$/);
  expect(errors).toEqual([]);
});

test('an unmatched path is a 404 naming the path (SPEC §2, §8); /beta is for signed-in people', async ({ page, request }) => {
  await page.goto('/no-such-page');
  await expect(page.getByRole('heading', { name: 'Page not found: /no-such-page' })).toBeVisible();
  await signUpAndVerify(page, request, newEmail('pages'), 'correct horse battery');
  await page.goto('/beta');
  await expect(page.getByRole('heading', { level: 1, name: 'Build with Kiln before everyone else' })).toBeVisible();
});
