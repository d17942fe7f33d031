import { type Caller, callerOf } from '@wms/kit/caller';
import type { CallContext } from '@wms/kit/context';
import { invalidArgument, invalidInput, notFound } from '@wms/kit/errors';
import { isUuid } from '@wms/kit/ids';
import type { Transact, Tx } from '@wms/kit/transactions';
import type { Attachments, MessageRead } from './adapters/attachments.ts';
import { reactionEmoji } from './domain/emoji.ts';
import { LIMITS, type Message, messageDeleted, type Reactions, type SavedState } from './domain/message.ts';
import { type Page, pageLimit } from './domain/paging.ts';
import type { MessagingEvent } from './event-payloads.ts';
import { requireMessage } from './lookups.ts';
import type { MessageStore } from './store/message.store.ts';
import type { OutboxStore } from './store/outbox.store.ts';
import type { ReactionStore } from './store/reaction.store.ts';
import type { SavedStore } from './store/saved.store.ts';

export interface MessageActionsDeps {
  transact: Transact;
  attachments: Attachments;
  messages: MessageStore;
  reactions: ReactionStore;
  saved: SavedStore;
  outbox: OutboxStore;
}

/** The largest save sequence number Postgres holds (bigint). */
const MAX_SEQ = 2n ** 63n - 1n;

/** The saved-messages cursor (opaque to clients): the save sequence number of the last item. */
const encodeCursor = (seq: string) => Buffer.from(`saved:${seq}`).toString('base64url');
function decodeCursor(cursor: string): string {
  const match = /^saved:(\d{1,19})$/.exec(Buffer.from(cursor, 'base64url').toString());
  if (!match || BigInt(match[1]!) > MAX_SEQ)
    throw invalidInput([{ field: 'query.cursor', message: 'must be a next_cursor from a previous page' }]);
  return match[1]!;
}

const savedUpdated = (me: Caller, saved: SavedState): MessagingEvent => ({
  type: 'saved.updated',
  workspaceId: me.workspaceId,
  actorId: me.actorId,
  saved,
});

/** Per-message actions of one actor: private bookmarks and reactions (contract §4). */
export class MessageActionsService {
  constructor(private readonly d: MessageActionsDeps) {}

  /** Saves a live message; saving again keeps the first save. */
  async save(ctx: CallContext, conversationId: string, messageId: string): Promise<SavedState> {
    const me = callerOf(ctx);
    return this.d.transact(async (tx) => {
      const outcome =
        isUuid(conversationId) && isUuid(messageId)
          ? await this.d.saved.save(me.actorId, me.workspaceId, conversationId, messageId, tx)
          : undefined;
      if (!outcome) throw notFound('No such message in this conversation.');
      if (outcome.savedAt === null) throw messageDeleted();
      const state = { messageId, savedAt: outcome.savedAt };
      if (outcome.created) await this.d.outbox.append([savedUpdated(me, state)], tx);
      return state;
    });
  }

  /** Removes only the caller's bookmark; idempotent, also for deleted messages. */
  async unsave(ctx: CallContext, conversationId: string, messageId: string): Promise<SavedState> {
    const me = callerOf(ctx);
    await requireMessage(this.d.messages, me, conversationId, messageId);
    const state = { messageId, savedAt: null };
    await this.d.transact(async (tx) => {
      if (await this.d.saved.unsave(me.workspaceId, me.actorId, messageId, tx))
        await this.d.outbox.append([savedUpdated(me, state)], tx);
    });
    return state;
  }

  /** The caller's saved live messages of this workspace, newest save first. */
  async listSaved(ctx: CallContext, q: { cursor?: string | undefined; limit: number }): Promise<Page<MessageRead>> {
    const me = callerOf(ctx);
    const limit = pageLimit(q.limit);
    const beforeSeq = q.cursor === undefined ? null : decodeCursor(q.cursor);
    const rows = await this.d.saved.page({
      actorId: me.actorId,
      workspaceId: me.workspaceId,
      beforeSeq,
      limit: limit + 1,
    });
    const items = rows.slice(0, limit);
    return {
      items: await this.d.attachments.read(ctx, items),
      nextCursor: rows.length > limit ? encodeCursor(items.at(-1)!.seq) : null,
    };
  }

  /** Adds the caller's reaction; a repeat changes nothing (same `reactions_version`). */
  async react(ctx: CallContext, conversationId: string, messageId: string, rawEmoji: string): Promise<Reactions> {
    const emoji = reactionEmoji(rawEmoji);
    const me = callerOf(ctx);
    // The usual case, one statement; when it adds nothing, the rules below tell why under the lock (or add it).
    const attempt = (tx: Tx) =>
      this.d.reactions.addToLive(
        {
          workspaceId: me.workspaceId,
          conversationId,
          messageId,
          emoji,
          actorId: me.actorId,
          maxEmoji: LIMITS.distinctEmoji,
        },
        tx,
      );
    return this.changeReaction(
      ctx,
      conversationId,
      messageId,
      async (message, actorId, tx) => {
        if (message.deletedAt !== null) throw messageDeleted();
        const present = message.reactions.find((r) => r.emoji === emoji);
        if (present?.actorIds.includes(actorId)) return undefined;
        if (!present && message.reactions.length >= LIMITS.distinctEmoji) {
          throw invalidArgument(
            'too_many_reactions',
            `A message holds at most ${LIMITS.distinctEmoji} different emoji.`,
          );
        }
        return this.d.reactions.add({ workspaceId: message.workspaceId, messageId, emoji, actorId }, tx);
      },
      attempt,
    );
  }

  /** Removes only the caller's reaction; idempotent. */
  async unreact(ctx: CallContext, conversationId: string, messageId: string, rawEmoji: string): Promise<Reactions> {
    const emoji = reactionEmoji(rawEmoji);
    return this.changeReaction(ctx, conversationId, messageId, (message, actorId, tx) =>
      message.deletedAt === null
        ? this.d.reactions.remove({ workspaceId: message.workspaceId, messageId, emoji, actorId }, tx)
        : Promise.resolve(undefined),
    );
  }

  /**
   * Runs a reaction change under the message's row lock (the change rewrites the summary) and records the event if it
   * changed; `attempt` first, when given: a change that takes the lock itself and does nothing the rules would refuse.
   */
  private async changeReaction(
    ctx: CallContext,
    conversationId: string,
    messageId: string,
    change: (message: Message, actorId: string, tx: Tx) => Promise<Message | undefined>,
    attempt?: (tx: Tx) => Promise<Message | undefined>,
  ): Promise<Reactions> {
    const me = callerOf(ctx);
    return this.d.transact(async (tx) => {
      if (!isUuid(conversationId) || !isUuid(messageId)) throw notFound('No such message in this conversation.');
      let updated = attempt && (await attempt(tx));
      if (!updated) {
        const locked = await this.d.messages.lock(me.workspaceId, messageId, me.actorId, tx);
        if (!locked || locked.conversationId !== conversationId)
          throw notFound('No such message in this conversation.');
        updated = await change(locked, me.actorId, tx);
        if (!updated) return locked;
      }
      await this.d.outbox.append([{ type: 'reactions.updated', message: updated }], tx);
      return updated;
    });
  }
}
