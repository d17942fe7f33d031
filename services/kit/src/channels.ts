// The provider channels of wms (contract §7), named in one place: the data owners publish on them, the realtime
// service authorizes and watches them, the gateway tells each client its own.

/** Each kind of channel is its prefix followed by the id of what it is about. */
export const CHANNEL_PREFIXES = {
  /** A workspace's changes and those of its members, actors and channels. */
  workspace: 'private-workspace-',
  /** Who of a workspace is online (at most 100 members with Pusher, and by default with Soketi). */
  presence: 'presence-workspace-',
  /** What only one actor may see (read state, bookmarks); being subscribed makes it online. */
  actor: 'private-actor-',
  /** One conversation's messages, reactions and threads. */
  conversation: 'private-conversation-',
} as const;

/** Where the gateway serves a self-hosted provider's websocket (RealtimeConfiguration's `ws_path`, under PUBLIC_URL). */
export const WEBSOCKET_PATH = '/realtime/ws';

export type ChannelKind = keyof typeof CHANNEL_PREFIXES;

export const workspaceChannel = (workspaceId: string) => `${CHANNEL_PREFIXES.workspace}${workspaceId}`;
export const presenceChannel = (workspaceId: string) => `${CHANNEL_PREFIXES.presence}${workspaceId}`;
export const actorChannel = (actorId: string) => `${CHANNEL_PREFIXES.actor}${actorId}`;
export const conversationChannel = (conversationId: string) => `${CHANNEL_PREFIXES.conversation}${conversationId}`;
