import { expect, test } from './fixtures.ts';
import { call, sharedChannel, signedIn, signUp } from './support.ts';

// After a lost connection the app reads what it missed through GET /events before it says "Live" again.

interface Seen {
  status: string | null | undefined;
  shown: boolean;
}

test('a message posted while the connection is down is shown by the catch-up before the status is Live again', async ({
  newPage,
}) => {
  const [alice, bob] = await Promise.all([signUp('catch-alice'), signUp('catch-bob')]);
  const { workspaceId, channelId } = await sharedChannel(alice, [bob]);
  // Alice's websocket goes through a route the test can cut: while `down`, every connection is closed at once.
  const page = await newPage();
  let down = false;
  const sockets: Array<{ close: () => Promise<void> }> = [];
  await page.routeWebSocket(/\/realtime\/ws/, (ws) => {
    if (down) return void ws.close({ code: 1006 });
    ws.connectToServer();
    sockets.push(ws);
  });
  const catchUps: string[] = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname === '/events' && new URL(r.url()).searchParams.has('after')) catchUps.push(r.url());
  });
  await signedIn(async () => page, alice);
  const bobPage = await signedIn(newPage, bob);
  // Every change of the status line and of whether the missed message is shown, in order.
  await page.evaluate(() => {
    const log: Seen[] = [];
    (window as unknown as { seen: Seen[] }).seen = log;
    const record = () => {
      const status = document.querySelector('[role=status]')?.textContent;
      const shown = [...document.querySelectorAll('article')].some((a) =>
        a.textContent?.includes('while you were away'),
      );
      const last = log.at(-1);
      if (!last || last.status !== status || last.shown !== shown) log.push({ status, shown });
    };
    record();
    new MutationObserver(record).observe(document.body, { subtree: true, childList: true, characterData: true });
  });

  down = true;
  await Promise.all(sockets.map((ws) => ws.close()));
  await expect(page.getByRole('status')).not.toHaveText('Live');
  await call('POST', `/conversations/${channelId}/messages`, {
    token: bob.token,
    workspaceId,
    body: { body_text: 'while you were away' },
  });
  // Bob, connected, sees it live: its event has gone out, to Alice's connection too had it been up.
  await expect(
    bobPage.getByRole('article', { name: 'Message' }).filter({ hasText: 'while you were away' }),
  ).toBeVisible();
  down = false;

  await expect(page.getByRole('status')).toHaveText('Live', { timeout: 30_000 });
  await expect(page.getByRole('article', { name: 'Message' }).filter({ hasText: 'while you were away' })).toBeVisible();
  const seen = await page.evaluate(() => (window as unknown as { seen: Seen[] }).seen);
  const outage = seen.findIndex((s) => s.status !== 'Live');
  expect(outage).toBeGreaterThanOrEqual(0);
  expect(seen.slice(outage).find((s) => s.status === 'Live')).toEqual({ status: 'Live', shown: true });
  expect(catchUps.length).toBeGreaterThan(0);
});
