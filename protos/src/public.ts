import type { Asset__Output } from '../gen/wms/common/v1/Asset.ts';
import type { Channel__Output } from '../gen/wms/messaging/v1/Channel.ts';
import type { ChannelMember__Output } from '../gen/wms/messaging/v1/ChannelMember.ts';
import type { Message__Output } from '../gen/wms/messaging/v1/Message.ts';
import type { MessagePage__Output } from '../gen/wms/messaging/v1/MessagePage.ts';
import type { MessageChild__Output } from '../gen/wms/messaging/v1/MessageChild.ts';
import type { MessageReactions__Output } from '../gen/wms/messaging/v1/MessageReactions.ts';
import type { Reaction__Output } from '../gen/wms/messaging/v1/Reaction.ts';
import type { ReadState__Output } from '../gen/wms/messaging/v1/ReadState.ts';
import type { SearchPage__Output } from '../gen/wms/messaging/v1/SearchPage.ts';
import type { SavedMessageState__Output } from '../gen/wms/messaging/v1/SavedMessageState.ts';
import type { Thread__Output } from '../gen/wms/messaging/v1/Thread.ts';
import type { ThreadPage__Output } from '../gen/wms/messaging/v1/ThreadPage.ts';
import type { ActorPresence__Output } from '../gen/wms/realtime/v1/ActorPresence.ts';
import type { Actor__Output } from '../gen/wms/workspace/v1/Actor.ts';
import type { Workspace__Output } from '../gen/wms/workspace/v1/Workspace.ts';
import type { WorkspaceUser__Output } from '../gen/wms/workspace/v1/WorkspaceUser.ts';

// The public JSON of each resource that clients also receive in realtime events (contract §7), one function per
// resource from its proto message: the gateway answers HTTP with it, and the owning service builds the event's
// resource with it from the same proto message it answers over gRPC. So a resource reads the same in both, and a new
// field is added here once. The gateway checks each result type against its response schema, field for field (all but
// presence, whose listed items are online ones: the gateway narrows its status).
// Enum fields travel as proto strings; the owning service writes only the values listed here, hence their casts.

export const publicWorkspace = (w: Workspace__Output) => ({
  id: w.id,
  name: w.name,
  slug: w.slug,
  avatar_id: w.avatar_id ?? null,
  created_at: w.created_at,
  updated_at: w.updated_at,
});

export const publicWorkspaceUser = (m: WorkspaceUser__Output) => ({
  id: m.id,
  workspace_id: m.workspace_id,
  user_id: m.user_id,
  actor_id: m.actor_id,
  role: m.role as 'owner' | 'admin' | 'member',
  accepted_at: m.accepted_at ?? null,
  created_at: m.created_at,
  updated_at: m.updated_at,
  user: { id: m.user?.id ?? m.user_id, email: m.user?.email ?? '', name: m.user?.name ?? '' },
});

export const publicActor = (a: Actor__Output) => ({
  id: a.id,
  workspace_id: a.workspace_id,
  kind: a.kind as 'user' | 'agent',
  user_id: a.user_id ?? null,
  display_name: a.display_name,
  title: a.title ?? null,
  avatar_id: a.avatar_id ?? null,
  managed_by_admins: a.managed_by_admins,
  deactivated_at: a.deactivated_at ?? null,
  created_at: a.created_at,
  updated_at: a.updated_at,
});

/** `conversation_id` equals `id` (contract §4). */
export const publicChannel = (c: Channel__Output) => ({
  id: c.id,
  workspace_id: c.workspace_id,
  conversation_id: c.id,
  kind: c.kind as 'public' | 'private' | 'direct',
  name: c.name ?? null,
  topic: c.topic ?? null,
  created_by_actor_id: c.created_by_actor_id,
  member_count: c.member_count,
  is_member: c.is_member,
  participant_actor_ids: c.participant_actor_ids,
  last_message_at: c.last_message_at ?? null,
  archived_at: c.archived_at ?? null,
  created_at: c.created_at,
  updated_at: c.updated_at,
});

export const publicChannelMember = (m: ChannelMember__Output) => ({
  channel_id: m.channel_id,
  actor_id: m.actor_id,
  added_by_actor_id: m.added_by_actor_id ?? null,
  joined_at: m.joined_at,
});

export const publicAsset = (a: Asset__Output) => ({
  id: a.id,
  created_at: a.created_at,
  updated_at: a.updated_at,
  conversation_id: a.conversation_id,
  message_id: a.message_id ?? null,
  name: a.name,
  size_bytes: a.size_bytes,
  content_type: a.content_type,
  status: a.status as 'pending' | 'ready',
  preview_kind: (a.preview_kind ?? null) as 'image' | null,
});

export const publicReaction = (r: Reaction__Output) => ({ emoji: r.emoji, actor_ids: r.actor_ids });

/** A node of a message's body (contract §13), every field of its type present. */
export const publicMessageChild = (c: MessageChild__Output) => {
  const style = {
    bold: c.style?.bold ?? false,
    italic: c.style?.italic ?? false,
    strike: c.style?.strike ?? false,
    code: c.style?.code ?? false,
  };
  switch (c.type) {
    case 'link':
      return { type: 'link' as const, text: c.text, url: c.url ?? '', style };
    case 'mention':
      return { type: 'mention' as const, text: c.text, actor_id: c.actor_id ?? '' };
    case 'code_block':
      return { type: 'code_block' as const, text: c.text, language: c.language ?? null };
    case 'quote':
      return { type: 'quote' as const, text: c.text, style };
    default:
      return { type: 'text' as const, text: c.text, style };
  }
};

export const publicMessage = (m: Message__Output) => ({
  id: m.id,
  created_at: m.created_at,
  updated_at: m.updated_at,
  children: m.children.map(publicMessageChild),
  loading_expires_at: m.loading_expires_at ?? null,
  saved_at: m.saved_at ?? null,
  reply_count: m.reply_count,
  reply_actor_ids: m.reply_actor_ids,
  last_reply_at: m.last_reply_at ?? null,
  reactions: m.reactions.map(publicReaction),
  reactions_version: m.reactions_version,
  assets: m.assets.map(publicAsset),
  workspace_id: m.workspace_id,
  conversation_id: m.conversation_id,
  author_actor_id: m.author_actor_id,
  body_text: m.body_text,
  mentioned_actor_ids: m.mentioned_actor_ids,
  parent_message_id: m.parent_message_id ?? null,
  edited_at: m.edited_at ?? null,
  deleted_at: m.deleted_at ?? null,
});

// The pages of messages, which messaging renders as JSON once and the gateway passes on (JsonBody).

export const publicMessagePage = (p: MessagePage__Output) => ({
  items: p.items.map(publicMessage),
  next_cursor: p.next_cursor ?? null,
});

export const publicThread = (t: Thread__Output) => ({
  id: t.id,
  conversation_id: t.conversation_id,
  root_message: publicMessage(t.root_message!),
  reply_count: t.reply_count,
  last_reply_at: t.last_reply_at ?? null,
  following: t.following,
  last_read_message_id: t.last_read_message_id ?? null,
  unread_count: t.unread_count,
  mention_count: t.mention_count,
});

export const publicThreadPage = (p: ThreadPage__Output) => ({
  items: p.items.map(publicThread),
  next_cursor: p.next_cursor ?? null,
});

export const publicSearchPage = (p: SearchPage__Output) => ({
  items: p.items.map((hit) => ({
    message: publicMessage(hit.message!),
    highlights: hit.highlights.map((h) => ({ start: h.start, end: h.end })),
  })),
  next_cursor: p.next_cursor ?? null,
});

export const publicMessageReactions = (r: MessageReactions__Output) => ({
  message_id: r.message_id,
  reactions: r.reactions.map(publicReaction),
  reactions_version: r.reactions_version,
});

export const publicSavedMessageState = (r: SavedMessageState__Output) => ({
  message_id: r.message_id,
  saved: r.saved,
  saved_at: r.saved_at ?? null,
});

export const publicReadState = (r: ReadState__Output) => ({
  conversation_id: r.conversation_id,
  thread_root_id: r.thread_root_id ?? null,
  last_read_message_id: r.last_read_message_id ?? null,
  last_read_at: r.last_read_at ?? null,
  unread_count: r.unread_count,
  mention_count: r.mention_count,
  following: r.following ?? null,
  updated_at: r.updated_at ?? null,
});

/** "offline" only in the event of a leave; a listed presence is online. */
export const publicActorPresence = (p: ActorPresence__Output) => ({
  actor_id: p.actor_id,
  status: p.status as 'online' | 'offline',
  since: p.since,
});
