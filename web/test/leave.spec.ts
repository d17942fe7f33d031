import { expect, test } from './fixtures.ts';
import { call, sharedChannel, signedIn, signUp } from './support.ts';

// Losing a private channel takes it away at once: the sidebar drops it, the provider closes the connection signed in as
// the actor (the app connects and subscribes again, without it), and none of its later events reach the browser.

test('a person removed from a private channel stops seeing it and receiving its events', async ({ newPage }) => {
  const [alice, bob] = await Promise.all([signUp('leave-alice'), signUp('leave-bob')]);
  const { workspaceId, channelId: general } = await sharedChannel(alice, [bob]);
  const asAlice = { token: alice.token, workspaceId };
  const bobId = (await call<{ id: string }>('GET', '/workspace/actors/me', { token: bob.token, workspaceId })).id;
  const secret = await call<{ id: string }>('POST', '/channels', {
    ...asAlice,
    body: { name: 'secret', kind: 'private', member_actor_ids: [bobId] },
  });

  const page = await newPage();
  const frames: string[] = [];
  page.on('websocket', (ws) => ws.on('framereceived', (f) => frames.push(String(f.payload))));
  await signedIn(async () => page, bob);
  const sidebar = page.getByRole('navigation', { name: 'Conversations' });
  // The newest conversation, the private one, is the one open.
  await expect(sidebar.getByRole('button', { name: '🔒 secret' })).toHaveAttribute('aria-current', 'page');

  const reconnected = page.waitForEvent('websocket');
  await call('DELETE', `/channels/${secret.id}/members/${bobId}`, asAlice);
  await expect(sidebar.getByRole('button', { name: '🔒 secret' })).toHaveCount(0);
  await expect(sidebar.getByRole('button', { name: '# general' })).toHaveAttribute('aria-current', 'page');
  await reconnected;
  await expect(page.getByRole('status')).toHaveText('Live');

  await call('POST', `/conversations/${secret.id}/messages`, { ...asAlice, body: { body_text: 'the secret plan' } });
  await call('POST', `/conversations/${general}/messages`, { ...asAlice, body: { body_text: 'a canary after it' } });
  await expect(page.getByRole('article', { name: 'Message' }).filter({ hasText: 'a canary after it' })).toBeVisible();
  expect(frames.some((f) => f.includes('a canary after it'))).toBe(true);
  expect(frames.filter((f) => f.includes('the secret plan'))).toEqual([]);
  await expect(call('GET', `/conversations/${secret.id}/messages`, { token: bob.token, workspaceId })).rejects.toThrow(
    /answered 404/,
  );
});
