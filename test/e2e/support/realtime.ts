import { pusherOptions, type RealtimeConfiguration, waitFor } from '@wms/testkit';
import PusherModule from 'pusher-js';
import { expect } from 'vitest';
import type { Account } from './accounts.ts';
import { gatewayUrl } from './http.ts';
import { inWorkspace } from './workspaces.ts';

// pusher-js's types declare an ES default export, but its Node build is CommonJS whose module.exports is the class.
const Pusher = PusherModule as unknown as typeof PusherModule.default;
type Pusher = InstanceType<typeof Pusher>;

export type { RealtimeConfiguration } from '@wms/testkit';

/** One event a client received: the provider's own (`pusher:member_added`...) included. */
export interface ReceivedEvent {
  channel: string;
  event: string;
  data: Record<string, unknown>;
}

/** A subscription the provider refused; `status` is what the authorization endpoint answered (pusher-js reports it). */
export class SubscriptionRefusedError extends Error {
  override readonly name = 'SubscriptionRefusedError';
  constructor(
    readonly channel: string,
    readonly status: number | undefined,
    readonly detail: unknown,
  ) {
    super(`subscription to ${channel} refused (status ${status}): ${JSON.stringify(detail)}`);
  }
}

export interface RealtimeClient {
  config: RealtimeConfiguration;
  pusher: Pusher;
  /** Every event received on any subscribed channel, in arrival order. */
  received: ReceivedEvent[];
  /** Subscribes and resolves with what `pusher:subscription_succeeded` carried (the members, on a presence channel). */
  subscribe(channel: string): Promise<unknown>;
  /** The events received on `channel` so far, by name (all names without one). */
  on(channel: string, event?: string): Array<Record<string, unknown>>;
  /** The first event of that name on `channel` that `match` accepts, waiting for it to arrive. */
  waitForEvent(
    channel: string,
    event: string,
    match?: (data: Record<string, unknown>) => boolean,
    timeoutMs?: number,
  ): Promise<Record<string, unknown>>;
  /** Disconnects, and resolves once the websocket has closed. */
  disconnect(): Promise<void>;
}

const open = new Set<RealtimeClient>();

/** Disconnects every client still open (for afterEach/afterAll, so no socket outlives its test). */
export async function disconnectAll(): Promise<void> {
  await Promise.all([...open].map((c) => c.disconnect()));
}

/** The caller's realtime configuration. */
export async function realtimeConfig(
  account: Pick<Account, 'token'>,
  workspaceId: string,
): Promise<RealtimeConfiguration> {
  const res = await inWorkspace(account, workspaceId, 'GET', '/realtime/config');
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as RealtimeConfiguration;
}

/**
 * A pusher-js client of the account in the workspace, made from nothing but `GET /realtime/config` and the gateway's
 * URL (the endpoints in the configuration are relative to it), as any client of wms would make it.
 */
export async function connectRealtime(account: Pick<Account, 'token'>, workspaceId: string): Promise<RealtimeClient> {
  const config = await realtimeConfig(account, workspaceId);
  const headers = { Authorization: `Bearer ${account.token}`, 'X-Workspace-Id': workspaceId };
  const pusher = new Pusher(config.app_key, pusherOptions(config, gatewayUrl(), headers));
  const received: ReceivedEvent[] = [];
  const on = (channel: string, event?: string) =>
    received.filter((e) => e.channel === channel && (event === undefined || e.event === event)).map((e) => e.data);
  const client: RealtimeClient = {
    config,
    pusher,
    received,
    subscribe(channel) {
      const subscription = pusher.subscribe(channel);
      subscription.bind_global((event: string, data: unknown) => {
        if (event.startsWith('pusher:subscription_') || event.startsWith('pusher_internal:')) return;
        received.push({ channel, event, data: data as Record<string, unknown> });
      });
      return new Promise((resolve, reject) => {
        subscription.bind('pusher:subscription_succeeded', (data: unknown) => resolve(data));
        subscription.bind('pusher:subscription_error', (err: { status?: number }) => {
          // Forgotten, so a later subscribe to the same name starts afresh.
          pusher.unsubscribe(channel);
          reject(new SubscriptionRefusedError(channel, err?.status, err));
        });
      });
    },
    on,
    waitForEvent: (channel, event, match = () => true, timeoutMs = 15_000) =>
      waitFor(`${event} on ${channel}`, () => on(channel, event).find(match), timeoutMs, 20),
    async disconnect() {
      open.delete(client);
      // pusher-js reports `disconnected` at once; its connection object says when the socket has really closed (the
      // provider has seen the close). It is internal, hence the cast; null when no socket is open.
      const socket = (
        pusher.connection as unknown as { connection: { bind(event: 'closed', callback: () => void): void } | null }
      ).connection;
      let closed = false;
      socket?.bind('closed', () => {
        closed = true;
      });
      pusher.disconnect();
      if (socket) await waitFor('the websocket to close', () => closed, 10_000, 10);
    },
  };
  open.add(client);
  return client;
}

/** The ids of events (their `event_id`s), for telling which of them a client received. */
export const eventIds = (events: Array<Record<string, unknown>>): string[] => events.map((d) => String(d.event_id));

/** An event as catch-up (`GET /events`) lists it. */
export interface CaughtUpEvent {
  cursor: string;
  channel: string;
  event: string;
  data: Record<string, unknown>;
}

/** Every event after `after` that the account may read in the workspace, as a client that was away catches up. */
export async function catchUp(account: Pick<Account, 'token'>, workspaceId: string, after: string) {
  const all: CaughtUpEvent[] = [];
  for (let cursor = after; ;) {
    const res = await inWorkspace(account, workspaceId, 'GET', `/events?after=${cursor}&limit=100`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const page = res.body as { items: CaughtUpEvent[]; next_cursor: string };
    all.push(...page.items);
    if (page.next_cursor === cursor) return all;
    cursor = page.next_cursor;
  }
}

/** Where a client catching up later starts: the newest event's cursor now. */
export async function eventsHead(account: Pick<Account, 'token'>, workspaceId: string): Promise<string> {
  const res = await inWorkspace(account, workspaceId, 'GET', '/events');
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body as { next_cursor: string }).next_cursor;
}
