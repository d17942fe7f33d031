import { type DomainError, ensure, failedPrecondition, invalidArgument } from '@wms/kit/errors';

/** The API's reaction shape, stored as is in the message's summary column. */
export interface ReactionSummary {
  emoji: string;
  actor_ids: string[];
}

export interface Message {
  id: string;
  workspaceId: string;
  conversationId: string;
  parentMessageId: string | null;
  authorActorId: string;
  bodyText: string;
  mentionedActorIds: string[];
  assetIds: string[];
  loadingExpiresAt: Date | null;
  replyCount: number;
  replyActorIds: string[];
  lastReplyAt: Date | null;
  reactions: ReactionSummary[];
  reactionsVersion: number;
  editedAt: Date | null;
  deletedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** An attachment as clients see it (contract §6); the asset service owns it. */
export interface AssetView {
  id: string;
  created_at: string;
  updated_at: string;
  conversation_id: string;
  message_id: string | null;
  name: string;
  size_bytes: number;
  content_type: string;
  status: string;
  preview_kind: string | null;
}

export const LIMITS = { bodyChars: 40_000, assets: 10, mentions: 50, clientMessageIdChars: 64, distinctEmoji: 50 } as const;
/** How long a message created with `loading: true` shows as loading (contract §4). */
export const LOADING_MS = 5 * 60 * 1000;
/** How long a client_message_id claim holds (contract §4). */
export const CLIENT_ID_TTL_MS = 24 * 60 * 60 * 1000;

/** Length in characters (code points), as Postgres counts them. */
const chars = (text: string) => {
  let n = 0;
  for (const _ of text) n++;
  return n;
};

export interface NewMessageInput {
  bodyText: string;
  assetIds: string[];
  mentionedActorIds: string[];
  clientMessageId?: string | undefined;
}

/** CreateMessage (contract §4); returns the mentions and assets without repeats, in first-mention order. */
export function validateNewMessage(input: NewMessageInput): { mentionedActorIds: string[]; assetIds: string[] } {
  const length = chars(input.bodyText);
  const mentionedActorIds = [...new Set(input.mentionedActorIds)];
  const clientId = input.clientMessageId;
  ensure(
    ['body.body_text', length <= LIMITS.bodyChars && (length > 0 || input.assetIds.length > 0), 'must be 1 to 40000 characters (empty only with asset_ids)'],
    ['body.asset_ids', input.assetIds.length <= LIMITS.assets, 'must hold at most 10 assets'],
    ['body.mentioned_actor_ids', mentionedActorIds.length <= LIMITS.mentions, 'must hold at most 50 actors'],
    ['body.client_message_id', clientId === undefined || (clientId.length >= 1 && clientId.length <= LIMITS.clientMessageIdChars), 'must be 1 to 64 characters'],
  );
  return { mentionedActorIds, assetIds: [...new Set(input.assetIds)] };
}

/** UpdateMessage: the new text follows the create rules (1..40,000 characters). */
export function validateEditedBody(bodyText: string): void {
  const length = chars(bodyText);
  ensure(['body.body_text', length >= 1 && length <= LIMITS.bodyChars, 'must be 1 to 40000 characters']);
}

/** Only the author edits; the author, owners and admins delete. */
export const canDelete = (message: Pick<Message, 'authorActorId'>, actorId: string, role: string | undefined) =>
  message.authorActorId === actorId || role === 'owner' || role === 'admin';

/** Why a reply cannot go under `parent` (contract §4), or undefined when it can. */
export function replyRefusal(parent: Pick<Message, 'parentMessageId' | 'deletedAt'>): DomainError | undefined {
  if (parent.parentMessageId !== null) return invalidArgument('not_a_root_message', 'Replies go under a top-level message, not under a reply.');
  if (parent.deletedAt !== null) return failedPrecondition('thread_root_deleted', 'The thread root has been deleted.');
  return undefined;
}

export const messageDeleted = () => failedPrecondition('message_deleted', 'The message has been deleted.');
