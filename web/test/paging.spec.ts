import { expect, test } from './fixtures.ts';
import { call, sharedChannel, signedIn, signUp } from './support.ts';

// A long channel is read a page at a time as the person scrolls up, never whole.

test('a channel of 120 messages shows the newest 50 at the bottom and reads older pages as the person scrolls up', async ({
  newPage,
}) => {
  const alice = await signUp('paging-alice');
  const { workspaceId, channelId } = await sharedChannel(alice, []);
  await call('POST', '/channels', { token: alice.token, workspaceId, body: { name: 'other' } });
  for (let i = 1; i <= 120; i++) {
    await call('POST', `/conversations/${channelId}/messages`, {
      token: alice.token,
      workspaceId,
      body: { body_text: `message ${i}` },
    });
  }
  const page = await newPage();
  const reads: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes(`/conversations/${channelId}/messages?`)) reads.push(new URL(r.url()).search);
  });
  await signedIn(async () => page, alice);
  const articles = page.getByRole('region', { name: 'Messages' }).getByRole('article', { name: 'Message' });
  await expect(articles).toHaveCount(50);
  await expect(articles.last()).toContainText('message 120');
  await expect(articles.last()).toBeInViewport();
  await expect(articles.first().locator('.body')).toHaveText('message 71');
  expect(reads).toHaveLength(1);

  // Another conversation and back: the cached page shows at the bottom again, and scrolling up still reads on.
  const sidebar = page.getByRole('navigation', { name: 'Conversations' });
  await sidebar.getByRole('button', { name: '# other' }).click();
  await expect(articles).toHaveCount(0);
  await sidebar.getByRole('button', { name: '# general' }).click();
  await expect(articles).toHaveCount(50);
  await expect(articles.last()).toBeInViewport();
  expect(reads).toHaveLength(1);

  // Scrolling to the top reads the next page, and the messages in view stay in view.
  await page.locator('.scroller').evaluate((el) => (el.scrollTop = 0));
  await expect(articles).toHaveCount(100);
  await expect(articles.filter({ hasText: 'message 71' })).toBeInViewport();
  await page.locator('.scroller').evaluate((el) => (el.scrollTop = 0));
  await expect(articles).toHaveCount(120);
  await expect(articles.first().locator('.body')).toHaveText('message 1');
  await expect(page.getByRole('button', { name: 'Load older messages' })).toHaveCount(0);
  expect(reads).toHaveLength(3);
  expect(reads.every((search) => new URLSearchParams(search).get('limit') === '50')).toBe(true);
});
