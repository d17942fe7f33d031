import { existsSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium, type Page } from '@playwright/test';
import { startCluster } from '@wms/local-cluster/cluster';
import { type Account, call, sharedChannel, signUp } from '../test/support.ts';

// `pnpm bench:web`: how long the built app takes to show a channel of 50 messages in headless Chromium (issue 39: under
// 300 ms). A test-mode cluster, two accounts in a workspace with two channels: `general`, 50 messages of mixed Markdown
// from both, and `random`, 3 messages posted last, so the app opens it first. Each measurement clicks `# general` in
// the sidebar and times, inside the page, from the click to the 50th message in the DOM and to the frame after it.
// Cold: a new browser context each time (signed in through `#session=`), so nothing of the channel is cached. Warm:
// one page going back to `random` between opens, so the messages come from the query cache.

const MESSAGES = 50;
const OTHER_MESSAGES = 3;
const RUNS = Number(process.env.BENCH_WEB_RUNS ?? 20);
const WARMUP = 3;
const DIST_INDEX = fileURLToPath(new URL('../dist/index.html', import.meta.url));

interface Timing {
  /** ms from the click to the 50th message element in the DOM. */
  dom: number;
  /** ms from the click to the task after the next animation frame: the frame that paints them has been drawn. */
  painted: number;
  /** ms the page of messages took to arrive (Resource Timing), when the open fetched it before showing it. */
  fetch: number | undefined;
}

/** Markdown as people write it: bold, italics, links, inline code and a block, a quote, a mention of the other. */
function bodyOf(i: number, mention: string): string {
  const n = i + 1;
  const bodies = [
    `**Standup ${n}**: the deploy went out at 10:${String(n).padStart(2, '0')}, log at https://example.org/deploys/${n}.`,
    `Could you look at \`gateway/src/web-app.ts\`, <@${mention}>? The *cache headers* look off to me.`,
    `See [the runbook](https://example.org/runbook#step-${n}) before you restart anything, and ~~ignore~~ skip step 3.`,
    `Fixed in \`messaging\` with this:\n\`\`\`ts\nconst page = await store.list(conversationId, { limit: ${n} });\nreturn page.items.map(toWire);\n\`\`\``,
    `> the p99 went from 40 to 400 ms after the index change\n\nThat is **not** what we expected; <@${mention}> can you check?`,
    `Lunch at 12:30? _Pizza_ or **ramen**, vote with a reaction.`,
    `Reminder: reviews by Friday, ${n} open pull requests left. Details on https://example.org/reviews?sort=age&page=${n}.`,
    `Plain text now and then too: no formatting at all in message number ${n}, just a sentence or two of prose.`,
  ];
  return bodies[i % bodies.length]!;
}

/** Two accounts in a workspace: `general` with the measured messages, then `random`, whose newer ones put it first. */
async function seed(): Promise<Account> {
  const [owner, colleague] = [await signUp('bench-owner'), await signUp('bench-colleague')];
  const { workspaceId, channelId } = await sharedChannel(owner, [colleague]);
  const as = (who: Account) => ({ token: who.token, workspaceId });
  const actorOf = async (who: Account) => (await call<{ id: string }>('GET', '/workspace/actors/me', as(who))).id;
  const actors = [await actorOf(owner), await actorOf(colleague)] as const;
  for (let i = 0; i < MESSAGES; i++) {
    const author = i % 3 === 2 ? colleague : owner;
    const other = author === owner ? actors[1] : actors[0];
    await call('POST', `/conversations/${channelId}/messages`, {
      ...as(author),
      body: { body_text: bodyOf(i, other) },
    });
  }
  const random = await call<{ id: string }>('POST', '/channels', { ...as(owner), body: { name: 'random' } });
  for (let i = 0; i < OTHER_MESSAGES; i++)
    await call('POST', `/conversations/${random.id}/messages`, { ...as(owner), body: { body_text: `hello ${i}` } });
  return owner;
}

/**
 * In the page: clicks the sidebar's `# <name>` and answers when exactly `count` messages are in the message pane (a
 * MutationObserver, so the check runs in the microtask after each DOM change), then after the next frame.
 */
function openChannel({ name, count }: { name: string; count: number }): Promise<Timing> {
  const buttons = document.querySelectorAll<HTMLButtonElement>('nav[aria-label="Conversations"] button');
  const button = [...buttons].find((b) => b.textContent?.startsWith(`# ${name}`));
  if (!button) return Promise.reject(new Error(`no sidebar button # ${name}`));
  const shown = () =>
    document.querySelectorAll('section[aria-label="Messages"] article[aria-label="Message"]').length === count;
  return new Promise((resolve, reject) => {
    let dom: number | undefined;
    const timeout = setTimeout(() => reject(new Error(`# ${name} did not show ${count} messages in 10 s`)), 10_000);
    const observer = new MutationObserver(() => {
      if (dom !== undefined || !shown()) return;
      dom = performance.now() - start;
      observer.disconnect();
      requestAnimationFrame(() => {
        const channel = new MessageChannel();
        channel.port1.onmessage = () => {
          clearTimeout(timeout);
          const page = performance
            .getEntriesByType('resource')
            .find((e) => e.startTime >= start && e.name.includes('/messages?limit=50'));
          resolve({ dom: dom!, painted: performance.now() - start, fetch: page?.duration });
        };
        channel.port2.postMessage(null);
      });
    });
    observer.observe(document.body, { childList: true, subtree: true, characterData: true });
    const start = performance.now();
    button.click();
  });
}

/** A new context (nothing cached) signed in through the handed-over session, `random` open and the connection live. */
async function freshPage(browser: Browser, appUrl: string, owner: Account): Promise<Page> {
  const context = await browser.newContext();
  // tsx compiles this file keeping function names (esbuild's keepNames: `__name(fn, "fn")` calls), which come along
  // when openChannel's source is sent to the page: the page gets the helper too, as a no-op.
  await context.addInitScript({ content: 'globalThis.__name = (fn) => fn;' });
  const page = await context.newPage();
  await page.goto(`${appUrl}#session=${owner.token}`);
  await page.getByRole('status').filter({ hasText: 'Live' }).waitFor();
  await page.getByRole('button', { name: '# random', exact: true }).and(page.locator('[aria-current=page]')).waitFor();
  await page
    .locator('section[aria-label="Messages"] article[aria-label="Message"]')
    .nth(OTHER_MESSAGES - 1)
    .waitFor();
  return page;
}

async function measureCold(browser: Browser, appUrl: string, owner: Account): Promise<Timing[]> {
  const timings: Timing[] = [];
  for (let i = 0; i < WARMUP + RUNS; i++) {
    const page = await freshPage(browser, appUrl, owner);
    const timing = await page.evaluate(openChannel, { name: 'general', count: MESSAGES });
    if (i >= WARMUP) timings.push(timing);
    await page.context().close();
  }
  return timings;
}

async function measureWarm(browser: Browser, appUrl: string, owner: Account): Promise<Timing[]> {
  const page = await freshPage(browser, appUrl, owner);
  const timings: Timing[] = [];
  for (let i = 0; i < WARMUP + RUNS; i++) {
    const timing = await page.evaluate(openChannel, { name: 'general', count: MESSAGES });
    if (i >= WARMUP) timings.push(timing);
    // Let the open's own requests (read mark, sidebar refetch, the page's background refetch) finish first.
    await page.waitForLoadState('networkidle');
    await page.evaluate(openChannel, { name: 'random', count: OTHER_MESSAGES });
    await page.waitForLoadState('networkidle');
  }
  await page.context().close();
  return timings;
}

/** Nearest-rank percentile. */
const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.max(0, Math.ceil((p / 100) * values.length) - 1)]!;

function table(rows: Array<[string, number[]]>): string {
  const header = ['open of # general, ms', 'p50', 'p95', 'max'];
  const cells = rows.map(([label, values]) => [label, ...[50, 95, 100].map((p) => percentile(values, p).toFixed(1))]);
  const widths = header.map((h, c) => Math.max(h.length, ...cells.map((row) => row[c]!.length)));
  const line = (row: string[]) => row.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!)));
  return [header, ...cells].map((row) => line(row).join('  ')).join('\n');
}

async function main(): Promise<void> {
  if (!existsSync(DIST_INDEX)) throw new Error('web/dist has no build: run `pnpm build:web` (`pnpm bench:web` does)');
  const cluster = await startCluster({ mode: 'test', logs: 'files' });
  let browser: Browser | undefined;
  try {
    // What web/test/support.ts reads; the app is opened at the public URL, as a person would (and its CSP wants).
    process.env.WMS_GATEWAY_URL = cluster.gatewayUrl;
    process.env.WMS_INBOX_URL = cluster.inboxUrl;
    const appUrl = new URL('/app/', cluster.publicUrl).href;
    const owner = await seed();
    browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' });
    const cpus = os.cpus();
    console.log(`date: ${new Date().toISOString()}`);
    console.log(
      `machine: ${cpus.length} CPUs (${cpus[0]?.model.trim() ?? 'unknown'}), load ${os.loadavg()[0]!.toFixed(2)}`,
    );
    console.log(`browser: headless Chromium ${browser.version()}; ${RUNS} opens each after ${WARMUP} not counted\n`);
    const cold = await measureCold(browser, appUrl, owner);
    const warm = await measureWarm(browser, appUrl, owner);
    console.log(
      table([
        ['cold: 50 in the DOM', cold.map((t) => t.dom)],
        ['cold: painted', cold.map((t) => t.painted)],
        ['cold: of which the fetch', cold.map((t) => t.fetch ?? NaN)],
        ['warm: 50 in the DOM', warm.map((t) => t.dom)],
        ['warm: painted', warm.map((t) => t.painted)],
      ]),
    );
    console.log(`load after: ${os.loadavg()[0]!.toFixed(2)}`);
  } finally {
    await browser?.close();
    await cluster.stop();
  }
}

await main();
