import type { AssetView, Message, ReactionSummary } from './message.ts';

const iso = (d: Date | null) => (d === null ? null : d.toISOString());

/**
 * A message as clients see it (contract §4), for responses and events alike: every field present, `saved_at` the
 * caller's own bookmark (null in events), `assets` looked up in `assets` by id. A deleted message is its placeholder: text, mentions, reactions and
 * assets emptied, thread fields kept.
 */
export function messageView(m: Message, savedAt: Date | null = null, assets: ReadonlyMap<string, AssetView> = new Map()) {
  const deleted = m.deletedAt !== null;
  const bodyText = deleted ? '' : m.bodyText;
  return {
    id: m.id,
    workspace_id: m.workspaceId,
    conversation_id: m.conversationId,
    author_actor_id: m.authorActorId,
    body_text: bodyText,
    children: bodyText === '' ? [] : [{ type: 'text', text: bodyText }],
    mentioned_actor_ids: deleted ? [] : m.mentionedActorIds,
    parent_message_id: m.parentMessageId,
    loading_expires_at: iso(m.loadingExpiresAt),
    saved_at: iso(savedAt),
    reply_count: m.replyCount,
    reply_actor_ids: m.replyActorIds,
    last_reply_at: iso(m.lastReplyAt),
    reactions: deleted ? [] : m.reactions,
    reactions_version: m.reactionsVersion,
    assets: deleted ? [] : m.assetIds.flatMap((id) => assets.get(id) ?? []),
    edited_at: iso(m.editedAt),
    deleted_at: iso(m.deletedAt),
    created_at: m.createdAt.toISOString(),
    updated_at: m.updatedAt.toISOString(),
  };
}

export type MessageView = ReturnType<typeof messageView>;

export const reactionsView = (m: { id: string; reactions: ReactionSummary[]; reactionsVersion: number }) => ({
  message_id: m.id,
  reactions: m.reactions,
  reactions_version: m.reactionsVersion,
});

export const savedView = (messageId: string, savedAt: Date | null) => ({ message_id: messageId, saved: savedAt !== null, saved_at: iso(savedAt) });

/** Read state of a conversation (thread fields null) or of a thread (contract §5). */
export interface ReadState {
  conversationId: string;
  threadRootId: string | null;
  lastReadMessageId: string | null;
  lastReadAt: Date | null;
  unreadCount: number;
  mentionCount: number;
  following: boolean | null;
  updatedAt: Date | null;
}

export const readStateView = (r: ReadState) => ({
  conversation_id: r.conversationId,
  thread_root_id: r.threadRootId,
  last_read_message_id: r.lastReadMessageId,
  last_read_at: iso(r.lastReadAt),
  unread_count: r.unreadCount,
  mention_count: r.mentionCount,
  following: r.following,
  updated_at: iso(r.updatedAt),
});
