import { randomUUID } from 'node:crypto';
import { actorChannel, conversationChannel, workspaceChannel } from '@wms/kit/channels';
import type { OutboxEntry } from '@wms/kit/outbox';
import type { Attachment, MessageRead } from './adapters/attachments.ts';
import type { Channel, ChannelKind, ChannelMember } from './domain/channel.ts';
import { childrenOf, type Message, type Reaction, type Reactions, type SavedState } from './domain/message.ts';
import type { ReadState } from './domain/read-state.ts';

/** A change realtime clients must see (contract §7), as services record it in the change's own transaction. */
export type MessagingEvent =
  /** `memberIds`: a private or direct conversation's members, each told on its own channel (public: none, told on the workspace's). */
  | { type: 'channel.created' | 'channel.updated'; channel: Channel; memberIds: string[] }
  | {
      type: 'channel_member.added' | 'channel_member.removed';
      workspaceId: string;
      kind: ChannelKind;
      member: ChannelMember;
    }
  | { type: 'message.created' | 'message.updated' | 'message.deleted'; message: MessageRead }
  | { type: 'thread.updated'; root: Message }
  | { type: 'reactions.updated'; message: Message }
  | { type: 'saved.updated'; workspaceId: string; actorId: string; saved: SavedState }
  | { type: 'read_state.updated'; workspaceId: string; actorId: string; state: ReadState };

const iso = (d: Date | null) => (d === null ? null : d.toISOString());

/**
 * The channel as clients see it in events (contract §4: `conversation_id` equals `id`): `is_member` as it is for the
 * event's receivers, so only in an event on a member's own channel; on the workspace's channel it is left out.
 */
const channelPayload = (c: Channel, isMember?: boolean) => ({
  id: c.id,
  workspace_id: c.workspaceId,
  conversation_id: c.id,
  kind: c.kind,
  name: c.name,
  topic: c.topic,
  created_by_actor_id: c.createdByActorId,
  member_count: c.memberCount,
  ...(isMember === undefined ? {} : { is_member: isMember }),
  participant_actor_ids: c.participantActorIds,
  last_message_at: iso(c.lastMessageAt),
  archived_at: iso(c.archivedAt),
  created_at: c.createdAt.toISOString(),
  updated_at: c.updatedAt.toISOString(),
});

const memberPayload = (m: ChannelMember) => ({
  channel_id: m.channelId,
  actor_id: m.actorId,
  added_by_actor_id: m.addedByActorId,
  joined_at: m.joinedAt.toISOString(),
});

const assetPayload = (a: Attachment) => ({
  id: a.id,
  created_at: a.created_at,
  updated_at: a.updated_at,
  conversation_id: a.conversation_id,
  message_id: a.message_id ?? null,
  name: a.name,
  size_bytes: a.size_bytes,
  content_type: a.content_type,
  status: a.status,
  preview_kind: a.preview_kind ?? null,
});

const reactionPayload = (r: Reaction) => ({ emoji: r.emoji, actor_ids: r.actorIds });

const reactionsPayload = (m: Reactions) => ({
  message_id: m.id,
  reactions: m.reactions.map(reactionPayload),
  reactions_version: m.reactionsVersion,
});

/** A message as every member sees it (contract §4): a bookmark is its owner's alone, so `saved_at` is null. */
const messagePayload = ({ message: m, assets }: MessageRead) => ({
  id: m.id,
  workspace_id: m.workspaceId,
  conversation_id: m.conversationId,
  author_actor_id: m.authorActorId,
  body_text: m.bodyText,
  children: childrenOf(m),
  mentioned_actor_ids: m.mentionedActorIds,
  parent_message_id: m.parentMessageId,
  loading_expires_at: iso(m.loadingExpiresAt),
  saved_at: null,
  reply_count: m.replyCount,
  reply_actor_ids: m.replyActorIds,
  last_reply_at: iso(m.lastReplyAt),
  reactions: m.reactions.map(reactionPayload),
  reactions_version: m.reactionsVersion,
  assets: assets.map(assetPayload),
  edited_at: iso(m.editedAt),
  deleted_at: iso(m.deletedAt),
  created_at: m.createdAt.toISOString(),
  updated_at: m.updatedAt.toISOString(),
});

const savedPayload = (s: SavedState) => ({
  message_id: s.messageId,
  saved: s.savedAt !== null,
  saved_at: iso(s.savedAt),
});

const readStatePayload = (r: ReadState) => ({
  conversation_id: r.conversationId,
  thread_root_id: r.threadRootId,
  last_read_message_id: r.lastReadMessageId,
  last_read_at: iso(r.lastReadAt),
  unread_count: r.unreadCount,
  mention_count: r.mentionCount,
  following: r.following,
  updated_at: iso(r.updatedAt),
});

/**
 * The event as clients receive it: its provider channels and its payload, with a fresh `event_id` that every copy of
 * one change shares, so a client that receives two copies (its own channel's and a conversation's) keeps one (the
 * realtime service sends a reference instead when a payload is over the provider's limit).
 */
export function outboxEntriesOf(e: MessagingEvent): OutboxEntry[] {
  const event_id = randomUUID();
  switch (e.type) {
    case 'channel.created':
    case 'channel.updated': {
      const workspaceId = e.channel.workspaceId;
      // Contract §9: a private or direct conversation is told only to its members.
      if (e.channel.kind !== 'public') {
        return e.memberIds.map((actorId) => ({
          workspaceId,
          channel: actorChannel(actorId),
          event: e.type,
          payload: { event_id, channel: channelPayload(e.channel, true) },
        }));
      }
      return [
        {
          workspaceId,
          channel: workspaceChannel(workspaceId),
          event: e.type,
          payload: { event_id, channel: channelPayload(e.channel) },
        },
      ];
    }
    case 'channel_member.added':
    case 'channel_member.removed': {
      // `conversation_kind` tells the realtime service (and the client) whether a removal takes the conversation away.
      const payload = { event_id, member: memberPayload(e.member), conversation_kind: e.kind };
      return [conversationChannel(e.member.channelId), actorChannel(e.member.actorId)].map((channel) => ({
        workspaceId: e.workspaceId,
        channel,
        event: e.type,
        payload,
      }));
    }
    default:
      return [outboxEventOf(e, event_id)];
  }
}

/** The events with one provider channel. */
function outboxEventOf(e: Exclude<MessagingEvent, { type: `channel${string}` }>, event_id: string): OutboxEntry {
  switch (e.type) {
    case 'message.created':
    case 'message.updated':
    case 'message.deleted': {
      const m = e.message.message;
      return {
        workspaceId: m.workspaceId,
        channel: conversationChannel(m.conversationId),
        event: e.type,
        payload: { event_id, message: messagePayload(e.message) },
      };
    }
    case 'thread.updated':
      return {
        workspaceId: e.root.workspaceId,
        channel: conversationChannel(e.root.conversationId),
        event: e.type,
        payload: {
          event_id,
          conversation_id: e.root.conversationId,
          root_id: e.root.id,
          reply_count: e.root.replyCount,
          reply_actor_ids: e.root.replyActorIds,
          last_reply_at: iso(e.root.lastReplyAt),
        },
      };
    case 'reactions.updated':
      return {
        workspaceId: e.message.workspaceId,
        channel: conversationChannel(e.message.conversationId),
        event: e.type,
        payload: { event_id, conversation_id: e.message.conversationId, reactions: reactionsPayload(e.message) },
      };
    case 'saved.updated':
      return {
        workspaceId: e.workspaceId,
        channel: actorChannel(e.actorId),
        event: e.type,
        payload: { event_id, saved: savedPayload(e.saved) },
      };
    case 'read_state.updated':
      return {
        workspaceId: e.workspaceId,
        channel: actorChannel(e.actorId),
        event: e.type,
        payload: { event_id, read_state: readStatePayload(e.state) },
      };
  }
}
