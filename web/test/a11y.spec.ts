import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { appUrl, call, sharedChannel, signedIn, signUp } from './support.ts';

// Usable by everyone: the keyboard alone, labels and visible focus, a narrow window, and an accessibility scanner
// (axe-core, WCAG 2.1 A and AA rules) finding nothing serious on each screen.

/** The serious and critical violations axe finds on the page as it is now. */
async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** Presses Tab until `target` has the focus (at most 60 times): it is reachable by keyboard. */
async function tabTo(page: Page, target: ReturnType<Page['locator']>): Promise<void> {
  for (let i = 0; i < 60; i++) {
    if (await target.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error('not reachable with Tab');
}

test('keyboard only: reach the composer, mention with the @ picker, Shift+Enter, Enter sends, Escape closes panels', async ({
  newPage,
}) => {
  const [alice, bob] = await Promise.all([signUp('kb-alice'), signUp('kb-bob')]);
  const { workspaceId, channelId } = await sharedChannel(alice, [bob]);
  const bobId = (await call<{ id: string }>('GET', '/workspace/actors/me', { token: bob.token, workspaceId })).id;
  const page = await signedIn(newPage, alice);
  const composer = page.getByRole('textbox', { name: 'Message' });
  await tabTo(page, composer);
  await page.keyboard.type('ask @kb-b');
  const picker = page.getByRole('listbox', { name: 'Mention someone' });
  await expect(picker.getByRole('option', { name: 'Web kb-bob' })).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Enter');
  await expect(picker).toHaveCount(0);
  await expect(composer).toHaveValue(`ask <@${bobId}> `);
  await page.keyboard.type('about it');
  await page.keyboard.press('Shift+Enter');
  await page.keyboard.type('thanks');
  await expect(composer).toHaveValue(`ask <@${bobId}> about it\nthanks`);
  await page.keyboard.press('Enter');
  const sent = page.getByRole('article', { name: 'Message' }).filter({ hasText: 'about it' });
  await expect(sent.locator('.mention')).toHaveText('@Web kb-bob');
  await expect(composer).toHaveValue('');
  const stored = await call<{
    items: Array<{ body_text: string; children: Array<{ type: string; actor_id?: string }> }>;
  }>('GET', `/conversations/${channelId}/messages`, { token: alice.token, workspaceId });
  expect(stored.items.map((m) => m.body_text)).toEqual([`ask <@${bobId}> about it\nthanks`]);
  expect(stored.items[0]!.children).toContainEqual(expect.objectContaining({ type: 'mention', actor_id: bobId }));

  // A panel opened from the keyboard, its focus visible, closed by Escape.
  const search = page.getByRole('button', { name: 'Search', exact: true });
  await tabTo(page, search);
  expect(await search.evaluate((el) => getComputedStyle(el).outlineStyle)).not.toBe('none');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('complementary', { name: 'Search' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Search' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('complementary')).toHaveCount(0);
  await expect(search).toBeFocused();
});

test('axe finds no serious violation on the sign-in screen, a conversation with a thread open, and a narrow window', async ({
  page,
  newPage,
}) => {
  await page.goto(appUrl());
  await expect(page.getByRole('form', { name: 'Sign in', exact: true })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);

  const [alice, bob] = await Promise.all([signUp('axe-alice'), signUp('axe-bob')]);
  const { workspaceId, channelId } = await sharedChannel(alice, [bob]);
  const asBob = { token: bob.token, workspaceId };
  const root = await call<{ id: string }>('POST', `/conversations/${channelId}/messages`, {
    ...asBob,
    body: { body_text: 'a **bold** plan with [a link](https://example.org) and `code`' },
  });
  await call('POST', `/conversations/${channelId}/messages`, {
    ...asBob,
    body: { body_text: 'a reply', parent_message_id: root.id },
  });
  const app = await signedIn(newPage, alice);
  await app.getByRole('button', { name: '1 reply' }).click();
  await expect(app.getByRole('complementary', { name: 'Thread' })).toContainText('a reply');
  expect(await seriousViolations(app)).toEqual([]);

  // A phone-sized window: nothing wider than the window, the sidebar and the conversation both there, a side panel over it all.
  await app.setViewportSize({ width: 375, height: 740 });
  expect(await app.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await expect(app.getByRole('navigation', { name: 'Conversations' })).toBeInViewport();
  await expect(app.getByRole('textbox', { name: 'Message' })).toBeInViewport();
  expect((await app.getByRole('complementary', { name: 'Thread' }).boundingBox())?.width).toBe(375);
  expect(await seriousViolations(app)).toEqual([]);
  await app.keyboard.press('Escape');
  expect(await seriousViolations(app)).toEqual([]);
});
