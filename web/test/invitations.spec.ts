import { randomBytes } from 'node:crypto';
import { expect, test } from './fixtures.ts';
import { call, mailedLink, sharedChannel, signedIn, signInThroughTheApp, signUp } from './support.ts';

// Invitations (contract §12) in the app: an admin invites from the sidebar, a person with an account accepts in the
// app, a newcomer registers from the mailed link and lands in the app inside the workspace.

test('an owner invites two people; one accepts in the app, a newcomer joins through the mailed link', async ({
  newPage,
}) => {
  const [alice, bob] = await Promise.all([signUp('inv-alice'), signUp('inv-bob')]);
  const { workspaceId } = await sharedChannel(alice, []);
  const newcomer = `inv-newcomer-${randomBytes(4).toString('hex')}@example.org`;

  const alicePage = await signedIn(newPage, alice);
  const sidebar = alicePage.getByRole('navigation', { name: 'Conversations' });
  await sidebar.getByText('Invite people').click();
  const form = sidebar.getByRole('form', { name: 'Invite people' });
  for (const email of [bob.email, newcomer]) {
    await form.getByLabel('Email address').fill(email);
    await form.getByRole('button', { name: 'Send the invitation' }).click();
    await expect(sidebar.getByRole('list', { name: 'Pending invitations' })).toContainText(email.toLowerCase());
  }
  const pending = await call<{ items: Array<{ email: string; status: string }> }>('GET', '/workspace/invitations', {
    token: alice.token,
    workspaceId,
  });
  expect(pending.items.map((i) => i.email).sort()).toEqual([bob.email, newcomer].map((e) => e.toLowerCase()).sort());

  // Bob, who has no workspace yet, sees the invitation and accepts: the workspace opens with its channel.
  const bobPage = await newPage();
  await signInThroughTheApp(bobPage, bob);
  const invitations = bobPage.getByRole('region', { name: 'Invitations' });
  await expect(invitations).toContainText('Web inv-alice invited you to Shared as a member.');
  await invitations.getByRole('button', { name: 'Accept' }).click();
  await expect(bobPage.getByRole('combobox', { name: 'Workspace' })).toHaveValue(workspaceId);
  await expect(invitations).toHaveCount(0);
  const bobSidebar = bobPage.getByRole('navigation', { name: 'Conversations' });
  await expect(bobSidebar).toContainText('You are in no conversation yet');
  await bobSidebar.getByText('Browse channels').click();
  await bobSidebar.getByRole('button', { name: 'Join general' }).click();
  await expect(bobSidebar.getByRole('button', { name: '# general' })).toBeVisible();
  // Alice's pending list loses Bob's invitation live (the acceptance's workspace_user.added).
  await expect(sidebar.getByRole('list', { name: 'Pending invitations' })).not.toContainText(bob.email.toLowerCase());
  const bobsWorkspaces = await call<Array<{ id: string }>>('GET', '/workspaces', { token: bob.token });
  expect(bobsWorkspaces.map((w) => w.id)).toEqual([workspaceId]);

  // The newcomer follows the mail's link, registers on the gateway's page and is handed over to the app.
  const page = await newPage();
  await page.goto(await mailedLink(newcomer));
  await page.getByLabel('Your name').fill('Nora Newcomer');
  await page.getByLabel('Choose a password (8 to 128 characters)').fill('correct-horse-1');
  await page.getByRole('button', { name: 'Create my account and join' }).click();
  await page.getByRole('link', { name: 'Open the web app' }).click();
  await expect(page.getByRole('combobox', { name: 'Workspace' })).toHaveValue(workspaceId);
  await expect(page.getByRole('status')).toHaveText('Live');
  const after = await call<{ items: unknown[] }>('GET', '/workspace/invitations?status=accepted', {
    token: alice.token,
    workspaceId,
  });
  expect(after.items).toHaveLength(2);
});
