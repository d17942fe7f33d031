import { expect, test } from './fixtures.ts';
import { appUrl, mailedCode, mailedLink, signUp } from './support.ts';

// Signing in without a password: a mailed code typed into the app, and a mailed link whose page hands over to it.

test('a person signs in with a mailed code, and again with a mailed link', async ({ page }) => {
  const alice = await signUp('nopass-alice');
  await page.goto(appUrl());
  const form = page.getByRole('form', { name: 'Sign in without a password' });
  await form.getByLabel('Email').fill(alice.email);
  await form.getByRole('button', { name: 'Email me a code' }).click();
  await expect(page.getByRole('status')).toContainText('a six-digit code is on its way');
  const code = page.getByRole('form', { name: 'Enter the code' });
  // A wrong code is refused with the API's message, and nothing is signed in.
  const right = await mailedCode(alice.email);
  await code.getByLabel('Six-digit code').fill(right === '000000' ? '111111' : '000000');
  await code.getByRole('button', { name: 'Sign in with the code' }).click();
  await expect(page.getByRole('alert')).toBeVisible();
  expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
  await code.getByLabel('Six-digit code').fill(right);
  await code.getByRole('button', { name: 'Sign in with the code' }).click();
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
  await page.getByRole('button', { name: 'Sign out' }).click();

  await form.getByLabel('Email').fill(alice.email);
  await form.getByRole('button', { name: 'Email me a sign-in link' }).click();
  await expect(page.getByRole('status')).toContainText('a sign-in link is on its way');
  await page.goto(await mailedLink(alice.email));
  // The link's page (/verify-email, which signs in a magic link's token too) asks for one click.
  await page.getByRole('button', { name: 'Confirm' }).click();
  await page.getByRole('link', { name: 'Open the web app' }).click();
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
  expect(new URL(page.url()).hash).toBe('');
});
