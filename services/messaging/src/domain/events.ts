import { randomUUID } from 'node:crypto';
import type { AssetView, Message } from './message.ts';
import { messageView, reactionsView } from './views.ts';

/** One change for clients (contract §7): the provider channel, the event name, its payload and what it is about. */
export interface OutboxEvent {
  workspaceId: string;
  channel: string;
  event: string;
  payload: Record<string, unknown>;
  /** Sent instead of the payload when that exceeds the provider's 10 KB limit. */
  ref: { type: string; id: string; conversation_id: string | null };
}

export const conversationChannel = (id: string) => `private-conversation-${id}`;
export const actorChannel = (id: string) => `private-actor-${id}`;
export const workspaceChannel = (id: string) => `private-workspace-${id}`;

/** Provider payloads above this many bytes are replaced by their reference. */
export const MAX_PAYLOAD_BYTES = 10 * 1024;

/** The payload the relay sends: the event, or its reference when the event is too large for the provider. */
export function deliverable(e: Pick<OutboxEvent, 'payload' | 'ref'>): Record<string, unknown> {
  if (Buffer.byteLength(JSON.stringify(e.payload)) <= MAX_PAYLOAD_BYTES) return e.payload;
  return { event_id: e.payload.event_id, ref: e.ref, truncated: true };
}

const ref = (m: Message) => ({ type: 'message', id: m.id, conversation_id: m.conversationId });

export const messageEvent = (event: 'message.created' | 'message.updated' | 'message.deleted', m: Message, assets?: ReadonlyMap<string, AssetView>): OutboxEvent => ({
  workspaceId: m.workspaceId,
  channel: conversationChannel(m.conversationId),
  event,
  payload: { event_id: randomUUID(), message: messageView(m, null, assets) },
  ref: ref(m),
});

export const reactionsEvent = (m: Message): OutboxEvent => ({
  workspaceId: m.workspaceId,
  channel: conversationChannel(m.conversationId),
  event: 'reactions.updated',
  payload: { event_id: randomUUID(), conversation_id: m.conversationId, reactions: reactionsView(m) },
  ref: { ...ref(m), type: 'reactions' },
});

export const threadEvent = (root: Message): OutboxEvent => ({
  workspaceId: root.workspaceId,
  channel: conversationChannel(root.conversationId),
  event: 'thread.updated',
  payload: {
    event_id: randomUUID(),
    conversation_id: root.conversationId,
    root_id: root.id,
    reply_count: root.replyCount,
    reply_actor_ids: root.replyActorIds,
    last_reply_at: root.lastReplyAt?.toISOString() ?? null,
  },
  ref: { ...ref(root), type: 'thread' },
});

/** `read_state.updated` or `saved.updated` on the actor's own channel. */
export const actorEvent = (
  workspaceId: string,
  actorId: string,
  event: 'read_state.updated' | 'saved.updated',
  body: { read_state: { conversation_id: string; thread_root_id: string | null } } | { saved: { message_id: string } },
  conversationId: string,
): OutboxEvent => ({
  workspaceId,
  channel: actorChannel(actorId),
  event,
  payload: { event_id: randomUUID(), ...body },
  ref:
    'saved' in body
      ? { type: 'saved', id: body.saved.message_id, conversation_id: conversationId }
      : { type: 'read_state', id: body.read_state.thread_root_id ?? body.read_state.conversation_id, conversation_id: conversationId },
});
