import { expect } from 'vitest';
import type { Account } from './accounts.ts';
import type { MessageBody } from './messages.ts';
import { walk } from './messages.ts';
import { inWorkspace } from './workspaces.ts';

// Steady posts and page reads as a client that retries would send them, for tests that stop and replace processes
// underneath (graceful stops, a rolling upgrade): each request is tried again until it is answered 2xx, a post with
// the same `client_message_id`, so a retry can neither lose a message nor make a second one.

/** A failed try that a retry then answered: the status (0 for no answer) and what it said. */
export interface FailedTry {
  what: 'post' | 'page';
  at: number;
  status: number;
  detail: string;
}

export interface LoadReport {
  /** The posts answered 2xx, by client_message_id, with the message's id. */
  acknowledged: Map<string, string>;
  pages: number;
  failedTries: FailedTry[];
  /** Requests still unanswered 2xx when they gave up (30 s of tries). */
  unanswered: FailedTry[];
}

const GIVE_UP_MS = 30_000;

/** Tries `call` until it answers 2xx, recording every failed try; undefined when it gave up. */
async function untilAnswered<T>(
  what: FailedTry['what'],
  call: () => Promise<{ status: number; body: unknown }>,
  report: LoadReport,
  answer: (body: unknown) => T,
): Promise<T | undefined> {
  const start = Date.now();
  for (;;) {
    const res = await call().catch((err: unknown) => ({ status: 0, body: (err as Error).message }));
    if (res.status >= 200 && res.status < 300) return answer(res.body);
    const failed = { what, at: Date.now(), status: res.status, detail: JSON.stringify(res.body).slice(0, 400) };
    if (Date.now() - start > GIVE_UP_MS) {
      report.unanswered.push(failed);
      return undefined;
    }
    report.failedTries.push(failed);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Posts and page reads, each every `everyMs`, until `stop`, which resolves with what happened. */
export function rollingLoad(account: Account, ws: string, conv: string, tag: string, everyMs = 100) {
  const report: LoadReport = { acknowledged: new Map(), pages: 0, failedTries: [], unanswered: [] };
  let running = true;
  const paced = async (step: () => Promise<void>) => {
    while (running) {
      const start = Date.now();
      await step();
      await new Promise((r) => setTimeout(r, Math.max(0, start + everyMs - Date.now())));
    }
  };
  let n = 0;
  const posting = paced(async () => {
    const key = `${tag}-${n++}`;
    const id = await untilAnswered(
      'post',
      () =>
        inWorkspace(account, ws, 'POST', `/conversations/${conv}/messages`, {
          body: { body_text: key, client_message_id: key },
        }),
      report,
      (body) => (body as MessageBody).id,
    );
    if (id !== undefined) report.acknowledged.set(key, id);
  });
  const reading = paced(async () => {
    const ok = await untilAnswered(
      'page',
      () => inWorkspace(account, ws, 'GET', `/conversations/${conv}/messages?limit=20`),
      report,
      () => true,
    );
    if (ok) report.pages++;
  });
  return {
    report,
    async stop(): Promise<LoadReport> {
      running = false;
      await Promise.all([posting, reading]);
      return report;
    },
  };
}

/**
 * Every acknowledged post is in the conversation once, with the id it was acknowledged with, and no message was made
 * that was not acknowledged (a retry made none twice).
 */
export async function expectEveryPostOnce(account: Account, ws: string, conv: string, report: LoadReport) {
  const pages = await walk<MessageBody>((cursor) =>
    inWorkspace(
      account,
      ws,
      'GET',
      `/conversations/${conv}/messages?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    ),
  );
  const stored = pages.flat().filter((m) => report.acknowledged.has(m.body_text ?? ''));
  const byText = new Map<string, string[]>();
  for (const m of stored) byText.set(m.body_text, [...(byText.get(m.body_text) ?? []), m.id]);
  const twice = [...byText].filter(([, ids]) => ids.length > 1);
  expect(twice, 'messages stored twice').toEqual([]);
  const missing = [...report.acknowledged].filter(([text, id]) => byText.get(text)?.[0] !== id);
  expect(missing, 'acknowledged messages missing').toEqual([]);
  expect(report.unanswered, 'requests no retry answered').toEqual([]);
}
