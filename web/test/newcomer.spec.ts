import { randomBytes } from 'node:crypto';
import { expect, test } from './fixtures.ts';
import { appUrl, call, mailedLink } from './support.ts';

// A newcomer with nothing but the app: registers, confirms the address through the mailed link (the gateway's page
// hands the session to the app), makes a workspace and a private channel, and posts there.

test('a newcomer registers, follows the mailed link into the app, creates a workspace and a channel, and posts', async ({
  page,
}) => {
  const email = `newcomer-${randomBytes(4).toString('hex')}@example.org`;
  await page.goto(appUrl());
  const register = page.getByRole('form', { name: 'Create an account' });
  await register.getByLabel('Your name').fill('Nina Newcomer');
  await register.getByLabel('Email').fill(email);
  await register.getByLabel('Password').fill('correct-horse-1');
  await register.getByRole('button', { name: 'Create the account' }).click();
  await expect(page.getByRole('status')).toContainText(`Check your inbox at ${email}`);

  await page.goto(await mailedLink(email));
  await page.getByRole('button', { name: 'Confirm' }).click();
  await page.getByRole('link', { name: 'Open the web app' }).click();
  // Signed in, and the session is out of the address.
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
  expect(new URL(page.url()).hash).toBe('');

  const workspace = page.getByRole('form', { name: 'Create a workspace' });
  await workspace.getByLabel('Workspace name').fill("Nina's team");
  await workspace.getByLabel('Address').fill(`nina-${randomBytes(3).toString('hex')}`);
  await workspace.getByRole('button', { name: 'Create the workspace' }).click();
  await expect(workspace).toHaveCount(0);
  await expect(page.getByRole('combobox', { name: 'Workspace' })).toHaveText("Nina's team");

  await page.getByText('New channel', { exact: true }).click();
  const channel = page.getByRole('form', { name: 'New channel' });
  await channel.getByLabel('Channel name').fill('plans');
  await channel.getByLabel('Private').check();
  await channel.getByRole('button', { name: 'Create the channel' }).click();
  await expect(page.getByRole('button', { name: /plans/ })).toHaveAttribute('aria-current', 'page');

  await page.getByRole('textbox', { name: 'Message' }).fill('first *words*');
  await page.getByRole('textbox', { name: 'Message' }).press('Enter');
  const messages = page.getByRole('region', { name: 'Messages' });
  await expect(messages.getByRole('listitem').locator('em', { hasText: 'words' })).toBeVisible();

  // As the API reads it: one workspace, the private channel with its one member, the message there.
  const token = await page.evaluate(() => sessionStorage.getItem('wms.session'));
  const [ws] = await call<Array<{ id: string }>>('GET', '/workspaces', { token: token! });
  const sidebar = await call<{ items: Array<{ conversation: { id: string; name: string; kind: string } }> }>(
    'GET',
    '/conversations',
    { token: token!, workspaceId: ws!.id },
  );
  expect(sidebar.items.map((i) => [i.conversation.name, i.conversation.kind])).toEqual([['plans', 'private']]);
  const stored = await call<{ items: Array<{ body_text: string }> }>(
    'GET',
    `/conversations/${sidebar.items[0]!.conversation.id}/messages`,
    { token: token!, workspaceId: ws!.id },
  );
  expect(stored.items.map((m) => m.body_text)).toEqual(['first *words*']);
});
