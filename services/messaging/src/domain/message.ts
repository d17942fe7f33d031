import { isManager } from '@wms/kit/caller';
import { type DomainError, ensure, failedPrecondition, invalidArgument } from '@wms/kit/errors';
import { isUuid } from '@wms/kit/ids';
import type { RichNode } from './markdown.ts';

/** One emoji on a message and who reacted with it, in reaction order. */
export interface Reaction {
  emoji: string;
  actorIds: string[];
}

export interface Message {
  id: string;
  workspaceId: string;
  conversationId: string;
  parentMessageId: string | null;
  authorActorId: string;
  bodyText: string;
  /** The body as rich-text nodes (contract §13), parsed when it was written. */
  children: MessageChild[];
  mentionedActorIds: string[];
  assetIds: string[];
  loadingExpiresAt: Date | null;
  replyCount: number;
  replyActorIds: string[];
  lastReplyAt: Date | null;
  /** Emoji by first reaction. */
  reactions: Reaction[];
  reactionsVersion: number;
  editedAt: Date | null;
  deletedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** A message with the reader's own bookmark time, as lists and single reads return it. */
export interface MessageWithSave {
  message: Message;
  savedAt: Date | null;
}

/** A text a message had (contract §13): `writtenAt` is when it was posted or edited to this. */
export interface MessageVersion {
  bodyText: string;
  children: MessageChild[];
  mentionedActorIds: string[];
  writtenAt: Date;
}

/** The versions of a message's text the history keeps, the current one included (contract §13). */
export const MAX_VERSIONS = 100;

/** The reader's bookmark of a message; `savedAt` null when not saved. */
export interface SavedState {
  messageId: string;
  savedAt: Date | null;
}

/** A message's reactions and the version that orders their changes (contract §4). */
export type Reactions = Pick<Message, 'id' | 'reactions' | 'reactionsVersion'>;

/** One rich-text node of a message's body (contract §13): markdown.ts's nodes. */
export type MessageChild = RichNode;

export const LIMITS = {
  bodyChars: 40_000,
  assets: 10,
  mentions: 50,
  clientMessageIdChars: 64,
  distinctEmoji: 50,
} as const;
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
    [
      'body.body_text',
      length <= LIMITS.bodyChars && (length > 0 || input.assetIds.length > 0),
      'must be 1 to 40000 characters (empty only with asset_ids)',
    ],
    ['body.asset_ids', input.assetIds.length <= LIMITS.assets, 'must hold at most 10 assets'],
    ['body.asset_ids', input.assetIds.every(isUuid), 'must be asset ids'],
    ['body.mentioned_actor_ids', mentionedActorIds.length <= LIMITS.mentions, 'must hold at most 50 actors'],
    ['body.mentioned_actor_ids', mentionedActorIds.every(isUuid), 'must be actor ids'],
    [
      'body.client_message_id',
      clientId === undefined || (clientId.length >= 1 && clientId.length <= LIMITS.clientMessageIdChars),
      'must be 1 to 64 characters',
    ],
  );
  return { mentionedActorIds, assetIds: [...new Set(input.assetIds)] };
}

/** A message mentions at most 50 actors (contract §13: the ids sent and those its text names, together), else 400. */
export function requireMentionLimit(actorIds: string[], field: string): void {
  ensure([
    field,
    new Set(actorIds).size <= LIMITS.mentions,
    'must mention at most 50 actors, with those body_text mentions',
  ]);
}

/** UpdateMessage: the new text follows the create rules (1..40,000 characters). */
export function validateEditedBody(bodyText: string): void {
  const length = chars(bodyText);
  ensure(['body.body_text', length >= 1 && length <= LIMITS.bodyChars, 'must be 1 to 40000 characters']);
}

/** Only the author edits; the author, owners and admins delete. */
export const canDelete = (message: Pick<Message, 'authorActorId'>, actorId: string, role: string | undefined) =>
  message.authorActorId === actorId || isManager(role);

/** Why a reply cannot go under `parent` (contract §4), or undefined when it can. */
export function replyRefusal(parent: Pick<Message, 'parentMessageId' | 'deletedAt'>): DomainError | undefined {
  if (parent.parentMessageId !== null)
    return invalidArgument('not_a_root_message', 'Replies go under a top-level message, not under a reply.');
  if (parent.deletedAt !== null) return failedPrecondition('thread_root_deleted', 'The thread root has been deleted.');
  return undefined;
}

export const messageDeleted = () => failedPrecondition('message_deleted', 'The message has been deleted.');

/**
 * What every reader sees of a message (contract §4): a deleted message is its placeholder, its text, mentions,
 * reactions and attachments gone and its thread fields kept.
 */
export const shown = (m: Message): Message =>
  m.deletedAt === null ? m : { ...m, bodyText: '', children: [], mentionedActorIds: [], reactions: [], assetIds: [] };
