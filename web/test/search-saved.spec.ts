import { expect, test } from './fixtures.ts';
import { call, sharedChannel, signedIn, signUp } from './support.ts';

// Search marks the words it matched (as text, whatever the message holds) and opens the hit's conversation; a message
// saved from the list shows in the Saved panel, a save from another client arrives live, and removing one removes it.

test('search marks matched words and opens the hit; saved messages follow saves, live ones too, and removals', async ({
  newPage,
}) => {
  const alice = await signUp('find-alice');
  const { workspaceId, channelId } = await sharedChannel(alice, []);
  const caller = { token: alice.token, workspaceId };
  const findings = await call<{ id: string }>('POST', '/channels', { ...caller, body: { name: 'findings' } });
  const post = (conversationId: string, text: string) =>
    call<{ id: string }>('POST', `/conversations/${conversationId}/messages`, { ...caller, body: { body_text: text } });
  const target = await post(findings.id, 'the zebrafinch report is ready');
  const hostile = await post(findings.id, 'Zebrafinch <img src=x onerror=alert(1)> <b>bold</b>');
  // The decoy shares words with the others but not the one searched; it makes #general the newest, so the one open.
  await post(channelId, 'the report about zebras is ready');
  const savedIds = async () =>
    (await call<{ items: Array<{ id: string }> }>('GET', '/saved-messages', caller)).items.map((m) => m.id);

  const page = await signedIn(newPage, alice);
  const nav = page.getByRole('navigation', { name: 'Conversations' });
  const messages = page.getByRole('region', { name: 'Messages' });
  await expect(nav.getByRole('button', { name: '# general' })).toHaveAttribute('aria-current', 'page');
  await expect(messages).toContainText('zebras');

  await page.getByRole('button', { name: 'Search', exact: true }).click();
  const search = page.getByRole('complementary', { name: 'Search' });
  const box = search.getByRole('searchbox', { name: 'Search messages' });
  await box.fill('nothingmatchesthisword');
  await box.press('Enter');
  await expect(search).toContainText('No messages match.');
  await box.fill('zebrafinch');
  await box.press('Enter');
  const hits = search.getByRole('list', { name: 'Search results' }).getByRole('listitem');
  await expect(hits).toHaveCount(2);
  // Newest first: the hostile one, its markup shown as text, then the target; each marks the word, case as written.
  await expect(hits.nth(0)).toContainText('Zebrafinch <img src=x onerror=alert(1)> <b>bold</b>');
  await expect(hits.nth(0).locator('mark')).toHaveText(['Zebrafinch']);
  await expect(hits.nth(1)).toContainText('# findings');
  await expect(hits.nth(1)).toContainText('the zebrafinch report is ready');
  await expect(hits.nth(1).locator('mark')).toHaveText(['zebrafinch']);
  await expect(search.locator('img, b')).toHaveCount(0);
  await expect(search).not.toContainText('zebras');

  await hits.nth(1).getByRole('button').click();
  await expect(nav.getByRole('button', { name: '# findings' })).toHaveAttribute('aria-current', 'page');
  const targetItem = messages.getByRole('article', { name: 'Message' }).filter({ hasText: 'report is ready' });
  const hostileItem = messages.getByRole('article', { name: 'Message' }).filter({ hasText: 'onerror' });
  await expect(targetItem).toHaveCount(1);
  await expect(messages).not.toContainText('zebras');

  const saveTarget = targetItem.getByRole('button', { name: 'Save for later' });
  await expect(saveTarget).toHaveAttribute('aria-pressed', 'false');
  await saveTarget.click();
  await expect(saveTarget).toHaveAttribute('aria-pressed', 'true');
  await page.getByRole('button', { name: 'Saved', exact: true }).click();
  const saved = page.getByRole('complementary', { name: 'Saved messages' }).getByRole('listitem');
  await expect(saved).toHaveCount(1);
  await expect(saved).toContainText('the zebrafinch report is ready');
  expect(await savedIds()).toEqual([target.id]);

  // A save from another client of the same person reaches this tab (saved.updated), newest save first.
  await call('PUT', `/conversations/${findings.id}/messages/${hostile.id}/saved`, caller);
  await expect(saved).toHaveCount(2);
  await expect(saved.nth(0)).toContainText('onerror');
  await expect(hostileItem.getByRole('button', { name: 'Save for later' })).toHaveAttribute('aria-pressed', 'true');

  await saved.filter({ hasText: 'report is ready' }).getByRole('button', { name: 'Remove' }).click();
  await expect(saved).toHaveCount(1);
  await expect(saved).toContainText('onerror');
  await expect(saveTarget).toHaveAttribute('aria-pressed', 'false');
  expect(await savedIds()).toEqual([hostile.id]);
});
