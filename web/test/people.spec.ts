import { expect, test } from './fixtures.ts';
import { call, sharedChannel, signedIn, signUp } from './support.ts';

// Finding channels and people: browse and join a public channel, start a direct conversation from the actor picker,
// see who is online, and a mention badge.

test('a person joins a public channel from the browser, starts a direct conversation, and sees presence and mentions', async ({
  newPage,
}) => {
  const [alice, bob] = await Promise.all([signUp('people-alice'), signUp('people-bob')]);
  const { workspaceId } = await sharedChannel(alice, [bob]);
  const asAlice = { token: alice.token, workspaceId };
  const lounge = await call<{ id: string }>('POST', '/channels', { ...asAlice, body: { name: 'lounge' } });
  const bobActor = await call<{ id: string }>('GET', '/workspace/actors/me', { token: bob.token, workspaceId });

  const bobPage = await signedIn(newPage, bob);
  const sidebar = bobPage.getByRole('navigation', { name: 'Conversations' });
  await expect(sidebar.getByRole('button', { name: '# general' })).toBeVisible();
  await expect(sidebar.getByRole('button', { name: '# lounge' })).toHaveCount(0);
  await sidebar.getByText('Browse channels').click();
  await sidebar.getByLabel('Find a channel').fill('loun');
  await sidebar.getByRole('button', { name: 'Join lounge' }).click();
  await expect(sidebar.getByRole('button', { name: '# lounge' })).toHaveAttribute('aria-current', 'page');
  const members = await call<{ items: Array<{ actor_id: string }> }>('GET', `/channels/${lounge.id}/members`, asAlice);
  expect(members.items.map((m) => m.actor_id)).toContain(bobActor.id);

  // A direct conversation with Alice, picked by name; Alice sees it arrive, unread, with Bob online.
  const alicePage = await signedIn(newPage, alice);
  await sidebar.getByText('New direct message').click();
  await sidebar.getByLabel('Find people').fill('people-alice');
  await sidebar.getByRole('button', { name: 'Add Web people-alice' }).click();
  await sidebar.getByRole('button', { name: 'Start the conversation' }).click();
  await expect(sidebar.getByRole('button', { name: /Web people-alice/ })).toHaveAttribute('aria-current', 'page');
  await bobPage.getByRole('textbox', { name: 'Message' }).fill('a word in private');
  await bobPage.getByRole('textbox', { name: 'Message' }).press('Enter');
  const direct = alicePage.getByRole('navigation', { name: 'Conversations' }).getByRole('button', {
    name: /Web people-bob/,
  });
  await expect(direct).toContainText('1 unread');
  // The new message put the direct conversation on top of Alice's list; the one she opened on (the newest, her
  // lounge) stays open.
  const aliceSidebar = alicePage.getByRole('navigation', { name: 'Conversations' });
  await expect(aliceSidebar.getByRole('button', { name: /# lounge/ })).toHaveAttribute('aria-current', 'page');
  await expect(direct).not.toHaveAttribute('aria-current');
  await expect(direct.getByRole('img', { name: 'online' })).toBeVisible();
  const listed = await call<{ items: Array<{ conversation: { kind: string; participant_actor_ids: string[] } }> }>(
    'GET',
    '/conversations?kind=direct',
    asAlice,
  );
  expect(listed.items).toHaveLength(1);
  expect(listed.items[0]!.conversation.participant_actor_ids).toContain(bobActor.id);

  // Alice mentions Bob in the lounge while he reads the direct conversation: his lounge shows a mention.
  await call('POST', `/conversations/${lounge.id}/messages`, {
    ...asAlice,
    body: { body_text: `look <@${bobActor.id}>` },
  });
  await expect(sidebar.getByRole('button', { name: /# lounge/ })).toContainText('1 mention');
});
