import PusherModule from 'pusher-js';

// A small agent for wms (contract §11): with a workspace token alone, it connects to realtime through the gateway,
// listens to every conversation its agent belongs to (and those it is added to later), and answers each message that
// mentions it with a reply in the message's thread. It knows nothing of wms but the gateway's URL and the token.

// pusher-js's types declare an ES default export, but its Node build is CommonJS whose module.exports is the class.
const Pusher = PusherModule as unknown as typeof PusherModule.default;

interface Message {
  id: string;
  conversation_id: string;
  author_actor_id: string;
  body_text: string;
  mentioned_actor_ids: string[];
  parent_message_id: string | null;
}

/** A `message.created` event: the message, or a reference to it when it was too large for the provider. */
type MessageEvent = { message: Message } | { truncated: true; ref: { id: string; conversation_id: string } };

export interface EchoAgent {
  /** The agent's actor. */
  actorId: string;
  /** The conversations it listens to. */
  conversations(): string[];
  stop(): void;
}

export interface EchoAgentOptions {
  /** The gateway, e.g. http://localhost:8080. */
  url: string;
  /** A workspace token (`wms_wt_...`) of the agent. */
  token: string;
  log?: (line: string) => void;
}

/** What `GET /realtime/config` tells a client: how to reach the provider, and the agent's own channel. */
interface RealtimeConfig {
  app_key: string;
  cluster: string;
  ws_host: string;
  ws_port: number;
  wss_port: number;
  ws_path: string;
  force_tls: boolean;
  channel_authorization_endpoint: string;
  channels: { actor: string };
}

/** A call to the gateway with the agent's token; throws on an error answer. */
type Api = <T>(method: string, path: string, body?: unknown) => Promise<T>;
type PusherClient = InstanceType<typeof Pusher>;
type Channel = ReturnType<PusherClient['subscribe']>;

/** Starts the agent; resolves once it listens to every conversation it belongs to. */
export async function startEchoAgent({ url, token, log = console.log }: EchoAgentOptions): Promise<EchoAgent> {
  const api = gatewayApi(url, token);
  const me = await api<{ id: string; display_name: string }>('GET', '/workspace/actors/me');
  const config = await api<RealtimeConfig>('GET', '/realtime/config');
  const pusher = connectRealtime(url, token, config);
  const answer = answerer(api, me.id, log);

  const listening = new Set<string>();
  const listen = async (conversationId: string) => {
    if (listening.has(conversationId)) return;
    listening.add(conversationId);
    const channel = await subscribe(pusher, `private-conversation-${conversationId}`);
    channel.bind(
      'message.created',
      (event: MessageEvent) => void answer(event).catch((err: unknown) => log(`cannot answer: ${String(err)}`)),
    );
  };

  // Added to a conversation later: listen to it too.
  const own = await subscribe(pusher, config.channels.actor);
  own.bind('channel_member.added', (event: { member: { channel_id: string; actor_id: string } }) => {
    if (event.member.actor_id !== me.id) return;
    listen(event.member.channel_id).then(
      () => log(`listening to ${event.member.channel_id}`),
      (err: unknown) => log(String(err)),
    );
  });
  await listenToCurrentConversations(api, listen);
  log(`${me.display_name} (${me.id}) listening to ${listening.size} conversation${listening.size === 1 ? '' : 's'}`);
  return { actorId: me.id, conversations: () => [...listening], stop: () => pusher.disconnect() };
}

function gatewayApi(url: string, token: string): Api {
  return async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await fetch(new URL(path, url), {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const answer: unknown = res.status === 204 ? undefined : await res.json();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(answer)}`);
    return answer as T;
  };
}

/** A Pusher client of the gateway's provider, authorizing its channels with the token. */
function connectRealtime(url: string, token: string, config: RealtimeConfig): PusherClient {
  return new Pusher(config.app_key, {
    cluster: config.cluster,
    wsHost: config.ws_host,
    wsPort: config.ws_port,
    wssPort: config.wss_port,
    wsPath: config.ws_path,
    forceTLS: config.force_tls,
    enabledTransports: ['ws', 'wss'],
    disableStats: true,
    // The endpoint is relative to the gateway; the token is the whole credential (no X-Workspace-Id needed).
    channelAuthorization: {
      endpoint: new URL(config.channel_authorization_endpoint, url).href,
      transport: 'ajax',
      headers: { Authorization: `Bearer ${token}` },
    },
  });
}

/** Answers a message that mentions the agent (and is not its own) in the message's thread. */
function answerer(api: Api, actorId: string, log: (line: string) => void): (event: MessageEvent) => Promise<void> {
  return async (event) => {
    const message =
      'message' in event
        ? event.message
        : await api<Message>('GET', `/conversations/${event.ref.conversation_id}/messages/${event.ref.id}`);
    if (message.author_actor_id === actorId || !message.mentioned_actor_ids.includes(actorId)) return;
    // Delivery is at least once: the message's id as client_message_id makes a second delivery answer nothing new.
    await api('POST', `/conversations/${message.conversation_id}/messages`, {
      body_text: `echo: ${message.body_text}`,
      parent_message_id: message.parent_message_id ?? message.id,
      client_message_id: `echo-${message.id}`,
    });
    log(`answered ${message.id} in ${message.conversation_id}`);
  };
}

/** Resolves once the provider has accepted the subscription. */
function subscribe(pusher: PusherClient, channel: string): Promise<Channel> {
  return new Promise<Channel>((resolve, reject) => {
    const subscription = pusher.subscribe(channel);
    subscription.bind('pusher:subscription_succeeded', () => resolve(subscription));
    subscription.bind('pusher:subscription_error', (err: unknown) =>
      reject(new Error(`cannot subscribe to ${channel}: ${JSON.stringify(err)}`)),
    );
  });
}

/** Listens to the conversations it belongs to now, page by page. */
async function listenToCurrentConversations(
  api: Api,
  listen: (conversationId: string) => Promise<void>,
): Promise<void> {
  for (let cursor: string | null = null; ;) {
    const page: { items: Array<{ conversation: { id: string } }>; next_cursor: string | null } = await api(
      'GET',
      `/conversations?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    await Promise.all(page.items.map((item) => listen(item.conversation.id)));
    cursor = page.next_cursor;
    if (!cursor) break;
  }
}
