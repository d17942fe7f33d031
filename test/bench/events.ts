import { pusherOptions, type RealtimeConfiguration, waitFor } from '@wms/testkit';
import type pg from 'pg';
import PusherModule from 'pusher-js';
import { callIn, type Session, sessionHeaders } from './api.ts';
import { percentile } from './measure.ts';

// pusher-js's types declare an ES default export, but its Node build is CommonJS whose module.exports is the class.
const Pusher = PusherModule as unknown as typeof PusherModule.default;
type Client = InstanceType<typeof Pusher>;

/** How long a run's events may take after its last POST answered before the missing ones count as lost. */
const EVENT_WAIT_MS = 10_000;
const SUBSCRIBE_TIMEOUT_MS = 15_000;

/** Posts sent open loop: one every 1/rate s for the duration, whether or not the earlier ones have answered. */
export interface EventLoad {
  rate: number;
  seconds: number;
}

/** What one run of the event path did: its posts, the events that came of them and their latency. */
export interface EventMeasurement {
  rate: number;
  seconds: number;
  posts: number;
  /** Posts not answered 201 (other statuses, connection errors, timeouts). */
  failed: number;
  failures: string;
  /** Posts answered 201 whose message.created arrived. */
  events: number;
  /** Posts answered 201 whose message.created did not arrive. */
  missing: number;
  /** message.created events beyond one per post of the run: repeats, or ids the run did not post. */
  extra: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

/** Connects as a client that knows only the gateway's address and subscribes to the conversation's channel. */
async function subscribe(session: Session, conversationId: string, onMessage: (id: string) => void): Promise<Client> {
  const config = await callIn<RealtimeConfiguration>(session, 'GET', '/realtime/config', 200);
  // pusher-js posts its authorization as a form, so the session's JSON content type stays out.
  const { 'content-type': _json, ...headers } = sessionHeaders(session);
  const client = new Pusher(config.app_key, pusherOptions(config, session.gatewayUrl, headers));
  const name = `private-conversation-${conversationId}`;
  const channel = client.subscribe(name);
  channel.bind('message.created', (data: { message?: { id?: string } }) => onMessage(String(data.message?.id)));
  try {
    await new Promise<void>((resolve, reject) => {
      const settle = (err?: Error) => {
        clearTimeout(timer);
        if (err) reject(err);
        else resolve();
      };
      const timer = setTimeout(
        () =>
          settle(
            new Error(
              `no subscription to ${name} within ${SUBSCRIBE_TIMEOUT_MS} ms (connection ${client.connection.state})`,
            ),
          ),
        SUBSCRIBE_TIMEOUT_MS,
      );
      channel.bind('pusher:subscription_succeeded', () => settle());
      channel.bind('pusher:subscription_error', (err: unknown) =>
        settle(new Error(`subscribing to ${name} failed: ${JSON.stringify(err)}`)),
      );
    });
  } catch (err) {
    client.disconnect();
    throw err;
  }
  return client;
}

/**
 * Posts to the conversation at a fixed rate while a subscribed pusher-js client receives its message.created events.
 * Each latency runs from the moment the post's 201 answer arrived to the moment its event did, both on this process's
 * clock; the event path starts at the commit, which is before the answer leaves the gateway.
 */
export async function measureEventPath(
  session: Session,
  conversationId: string,
  load: EventLoad,
  bodyText: string,
): Promise<EventMeasurement> {
  const arrivals = new Map<string, number[]>();
  const client = await subscribe(session, conversationId, (id) => {
    const at = performance.now();
    const times = arrivals.get(id);
    if (times) times.push(at);
    else arrivals.set(id, [at]);
  });
  try {
    const answered = new Map<string, number>();
    const errors = new Map<string, number>();
    const total = Math.round(load.rate * load.seconds);
    const posts: Array<Promise<void>> = [];
    const started = performance.now();
    for (let i = 0; i < total; i++) {
      const wait = started + (i * 1000) / load.rate - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      posts.push(
        callIn<{ id: string }>(session, 'POST', `/conversations/${conversationId}/messages`, 201, {
          body_text: bodyText,
        }).then(
          ({ id }) => void answered.set(id, performance.now()),
          (err: unknown) => {
            const message = err instanceof Error ? err.message : String(err);
            errors.set(message, (errors.get(message) ?? 0) + 1);
          },
        ),
      );
    }
    await Promise.all(posts);
    const missing = () => [...answered.keys()].filter((id) => !arrivals.has(id)).length;
    // The ones still missing at the deadline are counted below, not thrown: the report says how many.
    await waitFor('every post to have its event', () => missing() === 0, EVENT_WAIT_MS, 20).catch(() => undefined);

    const latenciesMs = [...answered]
      .flatMap(([id, at]) => (arrivals.has(id) ? [arrivals.get(id)![0]! - at] : []))
      .sort((a, b) => a - b);
    const received = [...arrivals.values()].reduce((sum, times) => sum + times.length, 0);
    const failed = [...errors.values()].reduce((a, b) => a + b, 0);
    return {
      ...load,
      posts: total,
      failed,
      failures: [...errors].map(([message, count]) => `${count}× ${message}`).join(', '),
      events: latenciesMs.length,
      missing: missing(),
      extra: received - latenciesMs.length,
      p50Ms: percentile(latenciesMs, 50),
      p99Ms: percentile(latenciesMs, 99),
      maxMs: latenciesMs.at(-1) ?? Number.NaN,
    };
  } finally {
    client.disconnect();
  }
}

/** Events committed by messaging but not yet triggered on the provider; measured events would queue behind them. */
export async function untriggeredEvents(pool: pg.Pool): Promise<number> {
  const { rows } = await pool.query<{ waiting: number }>(
    `SELECT (SELECT count(*) FROM messaging.outbox) + (SELECT count(*) FROM realtime.events WHERE id > (SELECT triggered_through FROM realtime.event_retention)) AS waiting`,
  );
  return Number(rows[0]?.waiting);
}
