import { expect, test } from './fixtures.ts';
import { appUrl, call, signInThroughTheApp, signUp } from './support.ts';

// The reference web client in a real browser (headless Chromium), against a test cluster.

test('a person signs in, reads a channel rendered from children, posts with Enter, and signs out', async ({ page }) => {
  const alice = await signUp('web-alice');
  const ws = await call<{ id: string }>('POST', '/workspaces', {
    token: alice.token,
    body: { name: 'Web test', slug: `web-${Date.now().toString(36)}` },
  });
  const caller = { token: alice.token, workspaceId: ws.id };
  const channel = await call<{ id: string }>('POST', '/channels', { ...caller, body: { name: 'general' } });
  const hostile = '**Ship** it <img src=x onerror="window.hacked=1"> [click](javascript:window.hacked=2)';
  await call('POST', `/conversations/${channel.id}/messages`, { ...caller, body: { body_text: hostile } });

  const app = await page.goto(appUrl());
  expect(app?.headers()['content-security-policy']).toContain("script-src 'self'");
  await signInThroughTheApp(page, alice);

  await expect(page.getByRole('button', { name: '# general' })).toBeVisible();
  const messages = page.getByRole('region', { name: 'Messages' });
  await expect(messages.locator('strong', { hasText: 'Ship' })).toBeVisible();
  // The hostile parts are text: no image, no javascript: link, nothing ran.
  await expect(messages.getByText('<img src=x onerror="window.hacked=1">')).toBeVisible();
  await expect(messages.locator('img')).toHaveCount(0);
  await expect(messages.locator('a[href^="javascript"]')).toHaveCount(0);
  expect(await page.evaluate(() => (window as { hacked?: number }).hacked)).toBeUndefined();

  await page.getByRole('textbox', { name: 'Message' }).fill('hello from the browser');
  await page.getByRole('textbox', { name: 'Message' }).press('Enter');
  await expect(messages.getByRole('listitem').filter({ hasText: 'hello from the browser' })).toBeVisible();
  const stored = await call<{ items: Array<{ body_text: string }> }>(
    'GET',
    `/conversations/${channel.id}/messages?limit=5`,
    caller,
  );
  expect(stored.items.map((m) => m.body_text)).toEqual(['hello from the browser', hostile]);

  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
});
