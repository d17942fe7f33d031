import { crc32, deflateSync } from 'node:zlib';
import { expect, test } from './fixtures.ts';
import { call, sharedChannel, signedIn, signUp } from './support.ts';

// Threads in the side panel and attachments, between two people: a reply and an uploaded image reach the other live.

/** A valid PNG of `width` × `height` RGB pixels (a gradient), made here rather than read from a file. */
function png(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits per sample, truecolour, no interlace
  const rows = Array.from({ length: height }, (_, y) =>
    Buffer.from([0, ...Array.from({ length: width }, (_, x) => [x * 30, y * 40, 200]).flat()]),
  );
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

interface StoredMessage {
  id: string;
  body_text: string;
  reply_count: number;
  parent_message_id: string | null;
  assets: Array<{ id: string; name: string; status: string; content_type: string; size_bytes: number }>;
}

test('a reply and an uploaded image reach the other person live, the upload showing its progress', async ({
  newPage,
}) => {
  const [alice, bob] = await Promise.all([signUp('thr-alice'), signUp('thr-bob')]);
  const { workspaceId, channelId } = await sharedChannel(alice, [bob]);
  const [alicePage, bobPage] = [await signedIn(newPage, alice), await signedIn(newPage, bob)];
  const aliceMain = alicePage.getByRole('form', { name: 'Write a message' });
  await aliceMain.getByRole('textbox', { name: 'Message' }).fill('release plan');
  await aliceMain.getByRole('textbox', { name: 'Message' }).press('Enter');

  // Bob opens the thread before it has replies; Alice opens it and replies.
  const bobMessages = bobPage.getByRole('region', { name: 'Messages' });
  const bobRoot = bobMessages.getByRole('article', { name: 'Message' }).filter({ hasText: 'release plan' });
  await bobRoot.getByRole('button', { name: 'Reply' }).click();
  const bobPanel = bobPage.getByRole('complementary', { name: 'Thread' });
  await expect(bobPanel).toContainText('No replies yet');
  await expect(bobRoot.getByRole('button', { name: /^\d+ repl/ })).toHaveCount(0);
  const aliceRoot = alicePage.getByRole('region', { name: 'Messages' }).getByRole('article', { name: 'Message' });
  await aliceRoot.getByRole('button', { name: 'Reply' }).click();
  const alicePanel = alicePage.getByRole('complementary', { name: 'Thread' });
  await alicePanel.getByRole('textbox', { name: 'Reply' }).fill('ship it friday');
  await alicePanel.getByRole('textbox', { name: 'Reply' }).press('Enter');

  await expect(bobRoot.getByRole('button', { name: '1 reply' })).toBeVisible();
  await expect(bobPanel.getByRole('list', { name: 'Replies' }).getByRole('listitem')).toHaveText([/ship it friday/]);
  await expect(bobPanel.getByRole('article', { name: 'Message' }).first()).toContainText('release plan');
  await expect(alicePanel.getByRole('list', { name: 'Replies' }).getByRole('listitem')).toHaveText([/ship it friday/]);
  await expect(bobMessages).not.toContainText('ship it friday');

  // Alice sends an image; its upload is held until Bob has seen the file announced as uploading.
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await alicePage.route('**/assets/*/content', async (route) => {
    await held;
    await route.continue();
  });
  const image = png(8, 6);
  await aliceMain.getByLabel('Attach').setInputFiles({ name: 'chart.png', mimeType: 'image/png', buffer: image });
  await aliceMain.getByRole('textbox', { name: 'Message' }).fill('the chart');
  await aliceMain.getByRole('textbox', { name: 'Message' }).press('Enter');
  const progress = aliceMain.getByRole('progressbar', { name: 'Uploading chart.png' });
  await expect(progress).toBeVisible();
  const bobChart = bobMessages.getByRole('article', { name: 'Message' }).filter({ hasText: 'the chart' });
  await expect(bobChart).toContainText('chart.png (uploading…)');
  await expect(bobChart.locator('img')).toHaveCount(0);
  release();

  const preview = bobChart.getByRole('img', { name: 'chart.png' });
  await expect(preview).toBeVisible();
  await expect.poll(() => preview.evaluate((img: HTMLImageElement) => (img.complete ? img.naturalWidth : 0))).toBe(8);
  await expect(progress).toHaveCount(0);
  await expect(bobChart).not.toContainText('uploading');

  await bobPage.keyboard.press('Escape');
  await expect(bobPanel).toHaveCount(0);

  await expectStoredOnce({ token: bob.token, workspaceId }, channelId, image);
});

/** Read back through the API: the root with its one reply, and the image's message with its one attachment. */
async function expectStoredOnce(caller: { token: string; workspaceId: string }, channelId: string, image: Buffer) {
  // Stored exactly once: one reply under the root, the root and the image's message at the top level.
  const top = await call<{ items: StoredMessage[] }>('GET', `/conversations/${channelId}/messages`, caller);
  expect(top.items.map((m) => [m.body_text, m.reply_count, m.assets.length])).toEqual([
    ['the chart', 0, 1],
    ['release plan', 1, 0],
  ]);
  const [chart, root] = top.items as [StoredMessage, StoredMessage];
  expect(chart.assets[0]).toMatchObject({
    name: 'chart.png',
    status: 'ready',
    content_type: 'image/png',
    size_bytes: image.length,
  });
  const replies = await call<{ items: StoredMessage[] }>(
    'GET',
    `/conversations/${channelId}/messages?parent_message_id=${root.id}`,
    caller,
  );
  expect(replies.items.map((m) => [m.body_text, m.parent_message_id])).toEqual([['ship it friday', root.id]]);
  const download = await call<{ url: string }>(
    'GET',
    `/conversations/${channelId}/assets/${chart.assets[0]!.id}/download`,
    caller,
  );
  expect(Buffer.from(await (await fetch(download.url)).arrayBuffer()).equals(image)).toBe(true);
}
