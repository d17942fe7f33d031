import type { Message, MessageWithSave } from './message.ts';

/** An actor's read mark in a conversation or thread; all null before the first read. */
export interface Mark {
  lastReadMessageId: string | null;
  lastReadAt: Date | null;
  updatedAt: Date | null;
}

export interface ThreadMark extends Mark {
  /** Null when never set: the implicit rule applies (`followsImplicitly`). */
  following: boolean | null;
}

export interface Counts {
  unreadCount: number;
  mentionCount: number;
}

/** Read state of a conversation (thread fields null) or of a thread (contract §5). */
export interface ReadState extends Mark, Counts {
  conversationId: string;
  threadRootId: string | null;
  following: boolean | null;
}

/** A thread of the actor's inbox: its root with the actor's bookmark, whether the actor follows it, and the counts. */
export interface Thread extends Counts {
  root: MessageWithSave;
  following: boolean;
  lastReadMessageId: string | null;
}

/** Implicit following (contract §5): the root's author and the actors it mentions follow until they choose. */
export const followsImplicitly = (
  root: Pick<Message, 'authorActorId' | 'mentionedActorIds'>,
  actorId: string,
): boolean => root.authorActorId === actorId || root.mentionedActorIds.includes(actorId);
