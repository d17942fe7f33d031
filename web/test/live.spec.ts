import { expect, test } from './fixtures.ts';
import { call, sharedChannel, signedIn, signUp } from './support.ts';

// Two people in two browser contexts: what one does appears for the other without a reload.

test('a message appears live for the other person, an unread badge rises and clears, a private channel stays hidden', async ({
  newPage,
}) => {
  const [alice, bob, carol] = await Promise.all([signUp('live-alice'), signUp('live-bob'), signUp('live-carol')]);
  const ws = await call<{ id: string }>('POST', '/workspaces', {
    token: alice.token,
    body: { name: 'Live', slug: `live-${Date.now().toString(36)}` },
  });
  const caller = { token: alice.token, workspaceId: ws.id };
  for (const who of [bob, carol]) await call('POST', '/workspace/users', { ...caller, body: { email: who.email } });
  const general = await call<{ id: string }>('POST', '/channels', { ...caller, body: { name: 'general' } });
  const random = await call<{ id: string }>('POST', '/channels', { ...caller, body: { name: 'random' } });
  await call('POST', '/channels', { ...caller, body: { name: 'secret', kind: 'private' } });
  // Bob and Carol join the public channels; only Alice is in the private one.
  for (const who of [bob, carol]) {
    const inWorkspace = { token: who.token, workspaceId: ws.id };
    const me = await call<{ id: string }>('GET', '/workspace/actors/me', inWorkspace);
    for (const channel of [general, random]) await call('PUT', `/channels/${channel.id}/members/${me.id}`, inWorkspace);
  }

  const [alicePage, bobPage, carolPage] = [
    await signedIn(newPage, alice),
    await signedIn(newPage, bob),
    await signedIn(newPage, carol),
  ];
  await bobPage.getByRole('button', { name: /# general/ }).click();
  await alicePage.getByRole('button', { name: /# general/ }).click();
  await alicePage.getByRole('textbox', { name: 'Message' }).fill('hello **bob**');
  await alicePage.getByRole('textbox', { name: 'Message' }).press('Enter');
  await expect(bobPage.getByRole('region', { name: 'Messages' }).locator('strong', { hasText: 'bob' })).toBeVisible();

  // A message where Bob is not looking: his badge rises, and clears once he opens the channel.
  await call('POST', `/conversations/${random.id}/messages`, { ...caller, body: { body_text: 'over here' } });
  const randomButton = bobPage.getByRole('button', { name: /# random/ });
  await expect(randomButton).toContainText('1 unread');
  await randomButton.click();
  await expect(
    bobPage.getByRole('region', { name: 'Messages' }).getByRole('listitem').filter({ hasText: 'over here' }),
  ).toBeVisible();
  await expect(randomButton).not.toContainText('unread');

  await expect(alicePage.getByRole('button', { name: /secret/ })).toBeVisible();
  await expect(carolPage.getByRole('button', { name: /# random/ })).toBeVisible();
  await expect(carolPage.getByRole('button', { name: /secret/ })).toHaveCount(0);
});

test('a message posted while the open conversation is still being subscribed to appears once it is', async ({
  newPage,
}) => {
  const [alice, bob] = await Promise.all([signUp('sub-alice'), signUp('sub-bob')]);
  const { workspaceId, channelId } = await sharedChannel(alice, [bob]);
  // Bob's authorization of the conversation's channel waits until the test lets it go.
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let asked!: () => void;
  const authorizing = new Promise<void>((resolve) => (asked = resolve));
  const bobPage = await signedIn(async () => {
    const page = await newPage();
    await page.route('**/realtime/authorize', async (route) => {
      if (route.request().postData()?.includes(`private-conversation-${channelId}`)) {
        asked();
        await released;
      }
      await route.continue();
    });
    return page;
  }, bob);
  await authorizing;
  const bobMessages = bobPage.getByRole('region', { name: 'Messages' });
  await expect(bobMessages).toBeVisible();
  await call('POST', `/conversations/${channelId}/messages`, {
    token: alice.token,
    workspaceId,
    body: { body_text: 'sent meanwhile' },
  });
  release();
  await expect(
    bobMessages.getByRole('article', { name: 'Message' }).filter({ hasText: 'sent meanwhile' }),
  ).toBeVisible();
});
