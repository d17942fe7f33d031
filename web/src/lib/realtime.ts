import Pusher from 'pusher-js';
import { api, ApiError, type Caller } from './api.ts';

// Realtime from nothing but the gateway (docs/realtime.md): GET /realtime/config, pusher-js over the gateway's
// websocket, channels authorized by the gateway with the session's headers; and after a lost connection, what was
// missed through GET /events (docs/api.md "Catch-up") before the connection counts as live again.

export interface RealtimeConfig {
  app_key: string;
  cluster: string;
  ws_host: string;
  ws_port: number;
  wss_port: number;
  ws_path: string;
  force_tls: boolean;
  channel_authorization_endpoint: string;
  user_authentication_endpoint: string;
  channels: { workspace: string; presence: string; actor: string };
}

export interface RealtimeEvent {
  channel: string;
  event: string;
  data: Record<string, unknown>;
}

export type RealtimeStatus = 'connecting' | 'catching up' | 'connected' | 'offline';

export interface RealtimeHandlers {
  onEvent(e: RealtimeEvent): void;
  onStatus(s: RealtimeStatus): void;
  /** Catch-up is impossible (the cursor's events are gone). */
  onLost(): void;
  /** A channel's subscription took effect (what happened on it before never arrives). */
  onSubscribed?(channel: string): void;
}

export interface Realtime {
  config: RealtimeConfig;
  subscribe(channel: string): void;
  unsubscribe(channel: string): void;
  close(): void;
}

/** Connects, hands every event to `onEvent` (live or caught up), and tells its status; `onLost` when catch-up is impossible. */
export async function connectRealtime(caller: Caller, handlers: RealtimeHandlers): Promise<Realtime> {
  const config = await api<RealtimeConfig>(caller, 'GET', '/realtime/config');
  const start = (await api<{ next_cursor: string }>(caller, 'GET', '/events')).next_cursor;
  const headers: Record<string, string> = { Authorization: `Bearer ${caller.token}` };
  if (caller.workspaceId) headers['X-Workspace-Id'] = caller.workspaceId;
  const pusher = new Pusher(config.app_key, {
    cluster: config.cluster,
    wsHost: config.ws_host,
    wsPort: config.ws_port,
    wssPort: config.wss_port,
    wsPath: config.ws_path,
    forceTLS: config.force_tls,
    enabledTransports: ['ws', 'wss'],
    disableStats: true,
    channelAuthorization: { endpoint: config.channel_authorization_endpoint, transport: 'ajax', headers },
    userAuthentication: { endpoint: config.user_authentication_endpoint, transport: 'ajax', headers },
  });
  const deliver = onceEach((e) => handlers.onEvent(e));
  let wasConnected = false;
  const log = eventLog(caller, start, deliver);
  /** Reads the log on; when its cursor expired (what was missed is gone), from its end on, and `onLost`. */
  const readLog = async () => {
    try {
      await log.read();
    } catch (err) {
      if (err instanceof ApiError && err.code === 'cursor_expired') {
        await log.restart();
        handlers.onLost();
      } else throw err;
    }
  };
  const catchUp = async () => {
    handlers.onStatus('catching up');
    await readLog();
    // The cache's listeners hear of the caught-up events on the next tick: the status changes after them.
    await new Promise((resolve) => setTimeout(resolve));
    handlers.onStatus('connected');
  };
  let closing = false;
  watchConnection(
    pusher,
    (status) => handlers.onStatus(status),
    () => closing,
    () => {
      if (wasConnected) void catchUp().catch(() => handlers.onStatus('offline'));
      else handlers.onStatus('connected');
      wasConnected = true;
    },
  );
  const subscribed = new Set<string>();
  const subscribe = (channel: string) => {
    if (subscribed.has(channel)) return;
    subscribed.add(channel);
    pusher.subscribe(channel).bind_global((event: string, data: unknown) => {
      // What happened on it before the subscription took effect never arrives live: it is read from the log (since
      // the cursor, taken before connecting), and the app reads what it shows of the channel again.
      if (event === 'pusher:subscription_succeeded') {
        // A read that fails otherwise leaves the cursor where it was: the next read goes on from there.
        void readLog().catch(() => {});
        handlers.onSubscribed?.(channel);
      }
      if (event.startsWith('pusher')) return;
      const payload = data as Record<string, unknown>;
      deliver({ channel, event, data: payload });
    });
  };
  const unsubscribe = (channel: string) => {
    if (subscribed.delete(channel)) pusher.unsubscribe(channel);
  };
  subscribe(config.channels.workspace);
  subscribe(config.channels.actor);
  // Signed in as the caller's actor, so that the provider can close this connection when the actor loses a private
  // channel or the workspace (docs/api.md "Realtime events"); pusher-js signs in again on each connection.
  pusher.signin();
  const close = () => {
    closing = true;
    pusher.disconnect();
  };
  return { config, subscribe, unsubscribe, close };
}

/**
 * The events log (GET /events, docs/api.md "Catch-up") read from `cursor` on, each event handed to `deliver`: one read
 * at a time, each from where the last stopped; a read asked for while another waits to start joins that one.
 */
function eventLog(caller: Caller, cursor: string, deliver: (e: RealtimeEvent) => void) {
  const readOn = async () => {
    for (;;) {
      const page = await api<{ items: RealtimeEvent[]; next_cursor: string }>(
        caller,
        'GET',
        `/events?after=${encodeURIComponent(cursor)}&limit=100`,
      );
      for (const e of page.items) deliver(e);
      if (page.next_cursor === cursor) break;
      cursor = page.next_cursor;
    }
  };
  let reading: Promise<void> = Promise.resolve();
  let waiting: Promise<void> | undefined;
  return {
    read: (): Promise<void> =>
      (waiting ??= reading
        .catch(() => {})
        .then(() => {
          waiting = undefined;
          reading = readOn();
          return reading;
        })),
    /** From the log's end on (its cursor expired: what was missed is gone from it). */
    async restart() {
      cursor = (await api<{ next_cursor: string }>(caller, 'GET', '/events')).next_cursor;
    },
  };
}

/**
 * Tells the connection's status, calls `onConnected` each time it is up, and connects again when the provider closed it
 * on purpose (close code 4009: a private channel or the workspace lost, after which pusher-js does not reconnect by
 * itself): the channels still allowed are subscribed again, and the ones lost are refused.
 */
function watchConnection(
  pusher: Pusher,
  onStatus: (s: RealtimeStatus) => void,
  closing: () => boolean,
  onConnected: () => void,
): void {
  pusher.connection.bind('state_change', ({ current }: { current: string }) => {
    if (current === 'connected') onConnected();
    else if (current === 'connecting') onStatus('connecting');
    else if (current === 'unavailable' || current === 'failed' || current === 'disconnected') {
      onStatus('offline');
      if (current === 'disconnected' && !closing()) setTimeout(() => closing() || pusher.connect(), 1000);
    }
  });
}

/**
 * Hands each event to `onEvent` once: a copy of a change on a second channel, or a live event read again by a catch-up,
 * has the same `event_id` (docs/api.md "Realtime events"). The last 5,000 ids are remembered. An event the app cannot
 * apply is logged, and the ones after it still are.
 */
function onceEach(onEvent: (e: RealtimeEvent) => void): (e: RealtimeEvent) => void {
  const seen = new Set<string>();
  return (e) => {
    const id = e.data.event_id;
    if (typeof id === 'string') {
      if (seen.has(id)) return;
      seen.add(id);
      if (seen.size > 5000) seen.delete(seen.values().next().value!);
    }
    try {
      onEvent(e);
    } catch (err) {
      console.error('an event could not be applied', e.event, err);
    }
  };
}
