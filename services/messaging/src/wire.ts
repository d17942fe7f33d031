import type { JsonBody__Output } from '@wms/protos/gen/wms/common/v1/JsonBody';
import type { Channel__Output } from '@wms/protos/gen/wms/messaging/v1/Channel';
import type { ChannelMember__Output } from '@wms/protos/gen/wms/messaging/v1/ChannelMember';
import type { Message__Output } from '@wms/protos/gen/wms/messaging/v1/Message';
import type { MessageChild__Output } from '@wms/protos/gen/wms/messaging/v1/MessageChild';
import type { MessageVersion__Output } from '@wms/protos/gen/wms/messaging/v1/MessageVersion';
import type { MessageReactions__Output } from '@wms/protos/gen/wms/messaging/v1/MessageReactions';
import type { Reaction__Output } from '@wms/protos/gen/wms/messaging/v1/Reaction';
import type { ReadState__Output } from '@wms/protos/gen/wms/messaging/v1/ReadState';
import type { SavedMessageState__Output } from '@wms/protos/gen/wms/messaging/v1/SavedMessageState';
import type { Thread__Output } from '@wms/protos/gen/wms/messaging/v1/Thread';
import type { MessageRead, ThreadRead } from './adapters/attachments.ts';
import type { Channel, ChannelMember } from './domain/channel.ts';
import {
  type MessageChild,
  type MessageVersion,
  type Reaction,
  type Reactions,
  type SavedState,
} from './domain/message.ts';
import type { Page } from './domain/paging.ts';
import type { ReadState } from './domain/read-state.ts';

// The domain as its proto messages, for the gRPC answers (rpc.ts) and for the events (event-payloads.ts), which make
// their resources' JSON from the same messages with @wms/protos/public, as the gateway does from the answers. Each is
// typed as the message a client decodes (every field present), so that both see the same object.

/** Protobuf leaves a field without value unset. */
const unset = <T>(value: T | null): T | undefined => value ?? undefined;
const iso = (d: Date | null): string | undefined => d?.toISOString();

export const toChannel = (c: Channel): Channel__Output => ({
  id: c.id,
  workspace_id: c.workspaceId,
  kind: c.kind,
  name: unset(c.name),
  topic: unset(c.topic),
  created_by_actor_id: c.createdByActorId,
  member_count: c.memberCount,
  is_member: c.isMember,
  participant_actor_ids: c.participantActorIds,
  last_message_at: iso(c.lastMessageAt),
  archived_at: iso(c.archivedAt),
  created_at: c.createdAt.toISOString(),
  updated_at: c.updatedAt.toISOString(),
});

export const toMember = (m: ChannelMember): ChannelMember__Output => ({
  channel_id: m.channelId,
  actor_id: m.actorId,
  added_by_actor_id: unset(m.addedByActorId),
  joined_at: m.joinedAt.toISOString(),
});

export const toReaction = (r: Reaction): Reaction__Output => ({ emoji: r.emoji, actor_ids: r.actorIds });

export const toReactions = (m: Reactions): MessageReactions__Output => ({
  message_id: m.id,
  reactions: m.reactions.map(toReaction),
  reactions_version: m.reactionsVersion,
});

/** A node as its proto message: the fields of its type set, the others absent. */
export const toChild = (c: MessageChild): MessageChild__Output => ({
  type: c.type,
  text: c.text,
  style: 'style' in c ? c.style : undefined,
  url: c.type === 'link' ? c.url : undefined,
  actor_id: c.type === 'mention' ? c.actor_id : undefined,
  language: c.type === 'code_block' ? (c.language ?? undefined) : undefined,
});

export const toMessageVersion = (v: MessageVersion): MessageVersion__Output => ({
  body_text: v.bodyText,
  children: v.children.map(toChild),
  mentioned_actor_ids: v.mentionedActorIds,
  written_at: v.writtenAt.toISOString(),
});

export const toMessage = ({ message: m, savedAt, assets }: MessageRead): Message__Output => ({
  id: m.id,
  workspace_id: m.workspaceId,
  conversation_id: m.conversationId,
  author_actor_id: m.authorActorId,
  body_text: m.bodyText,
  children: m.children.map(toChild),
  mentioned_actor_ids: m.mentionedActorIds,
  parent_message_id: unset(m.parentMessageId),
  loading_expires_at: iso(m.loadingExpiresAt),
  saved_at: iso(savedAt),
  reply_count: m.replyCount,
  reply_actor_ids: m.replyActorIds,
  last_reply_at: iso(m.lastReplyAt),
  reactions: m.reactions.map(toReaction),
  reactions_version: m.reactionsVersion,
  assets,
  edited_at: iso(m.editedAt),
  deleted_at: iso(m.deletedAt),
  created_at: m.createdAt.toISOString(),
  updated_at: m.updatedAt.toISOString(),
});

export const toPage = <T, P>(page: Page<T>, map: (item: T) => P) => ({
  items: page.items.map(map),
  next_cursor: unset(page.nextCursor),
});

/** A response body rendered once as its public JSON, which the gateway passes on as these bytes. */
export const toJsonBody = (body: unknown): JsonBody__Output => ({ json: Buffer.from(JSON.stringify(body)) });

export const toSaved = (s: SavedState): SavedMessageState__Output => ({
  message_id: s.messageId,
  saved: s.savedAt !== null,
  saved_at: iso(s.savedAt),
});

export const toReadState = (r: ReadState): ReadState__Output => ({
  conversation_id: r.conversationId,
  thread_root_id: unset(r.threadRootId),
  last_read_message_id: unset(r.lastReadMessageId),
  last_read_at: iso(r.lastReadAt),
  unread_count: r.unreadCount,
  mention_count: r.mentionCount,
  following: unset(r.following),
  updated_at: iso(r.updatedAt),
});

export const toThread = (t: ThreadRead): Thread__Output => ({
  id: t.root.message.id,
  conversation_id: t.root.message.conversationId,
  root_message: toMessage(t.root),
  reply_count: t.root.message.replyCount,
  last_reply_at: iso(t.root.message.lastReplyAt),
  following: t.following,
  last_read_message_id: unset(t.lastReadMessageId),
  unread_count: t.unreadCount,
  mention_count: t.mentionCount,
});
