import { expect, test } from './fixtures.ts';
import { call, sharedChannel, signedIn, signUp } from './support.ts';

// What one does to a message, the other sees without a reload: an edit, a reaction, a delete.

test('edits, reactions and deletes show for the other person live; only the author may edit or delete', async ({
  newPage,
}) => {
  const [alice, bob] = await Promise.all([signUp('act-alice'), signUp('act-bob')]);
  const { workspaceId, channelId } = await sharedChannel(alice, [bob]);
  const [alicePage, bobPage] = [await signedIn(newPage, alice), await signedIn(newPage, bob)];
  const composer = alicePage.getByRole('textbox', { name: 'Message' });
  await composer.fill('first draft');
  await composer.press('Enter');
  const aliceMessage = alicePage.getByRole('article', { name: 'Message' }).filter({ hasText: 'first draft' });
  const bobMessage = bobPage.getByRole('article', { name: 'Message' }).first();
  await expect(bobMessage).toContainText('first draft');
  // Bob may react, not edit or delete Alice's message.
  await expect(bobMessage.getByRole('button', { name: 'Edit' })).toHaveCount(0);

  await aliceMessage.getByRole('button', { name: 'Edit' }).click();
  await alicePage.getByLabel('Edited text').fill('final **text**');
  await alicePage.getByRole('form', { name: 'Edit the message' }).getByRole('button', { name: 'Save' }).click();
  await expect(bobMessage.locator('strong', { hasText: 'text' })).toBeVisible();
  await expect(bobMessage).toContainText('(edited)');

  await bobMessage.getByRole('button', { name: '👍 0' }).click();
  const reacted = alicePage.getByRole('article', { name: 'Message' }).first().getByRole('button', { name: '👍 1' });
  await expect(reacted).toBeVisible();
  await expect(reacted).toHaveAttribute('aria-pressed', 'false');
  await expect(bobMessage.getByRole('button', { name: '👍 1' })).toHaveAttribute('aria-pressed', 'true');

  await alicePage.getByRole('article', { name: 'Message' }).first().getByRole('button', { name: 'Delete' }).click();
  await expect(bobPage.getByRole('region', { name: 'Messages' })).toContainText('This message was deleted.');
  const page = await call<{ items: Array<{ body_text: string; deleted_at: string | null }> }>(
    'GET',
    `/conversations/${channelId}/messages`,
    { token: bob.token, workspaceId },
  );
  expect(page.items).toEqual([expect.objectContaining({ body_text: '', deleted_at: expect.any(String) })]);
});
