import type { CallContext } from '@wms/kit/context';
import type { Knex } from '@wms/kit/db';
import { invalidArgument, invalidInput, notFound } from '@wms/kit/errors';
import { isUuid } from '@wms/kit/ids';
import { callerOf } from '@wms/kit/caller';
import type { Attachments } from './attachments.ts';
import { reactionEmoji } from './domain/emoji.ts';
import { actorEvent, reactionsEvent } from './domain/events.ts';
import { LIMITS, type Message, messageDeleted } from './domain/message.ts';
import { type MessageView, messageView, reactionsView, savedView } from './domain/views.ts';
import { type Page, pageLimit } from './domain/paging.ts';
import { requireMessage } from './lookups.ts';
import type { MessageStore } from './store/message.store.ts';
import type { OutboxStore } from './store/outbox.store.ts';
import type { ReactionStore } from './store/reaction.store.ts';
import type { SavedStore } from './store/saved.store.ts';

export interface MessageActionsDeps {
  db: Knex;
  attachments: Attachments;
  messages: MessageStore;
  reactions: ReactionStore;
  saved: SavedStore;
  outbox: OutboxStore;
}

/** The saved-messages cursor (opaque to clients): the save sequence number of the last item. */
const encodeCursor = (seq: string) => Buffer.from(`saved:${seq}`).toString('base64url');
function decodeCursor(cursor: string): string {
  const match = /^saved:(\d{1,19})$/.exec(Buffer.from(cursor, 'base64url').toString());
  if (!match) throw invalidInput([{ field: 'query.cursor', message: 'must be a next_cursor from a previous page' }]);
  return match[1]!;
}

/** Per-message actions of one actor: private bookmarks and reactions (contract §4). */
export class MessageActionsService {
  constructor(private readonly d: MessageActionsDeps) {}

  /** Saves a live message; saving again keeps the first save. */
  async save(ctx: CallContext, conversationId: string, messageId: string) {
    const me = callerOf(ctx);
    await requireMessage(this.d.messages, me, conversationId, messageId);
    const savedAt = await this.d.db.transaction(async (trx) => {
      // Checked under the row lock, so a delete running at the same time cannot slip in between.
      if ((await this.d.messages.lock(trx, me.workspaceId, messageId))?.deletedAt !== null) throw messageDeleted();
      const saved = await this.d.saved.save(trx, me.actorId, me.workspaceId, messageId);
      if (saved.created) await this.d.outbox.append(trx, [actorEvent(me.workspaceId, me.actorId, 'saved.updated', { saved: savedView(messageId, saved.savedAt) }, conversationId)]);
      return saved.savedAt;
    });
    return savedView(messageId, savedAt);
  }

  /** Removes only the caller's bookmark; idempotent, also for deleted messages. */
  async unsave(ctx: CallContext, conversationId: string, messageId: string) {
    const me = callerOf(ctx);
    await requireMessage(this.d.messages, me, conversationId, messageId);
    await this.d.db.transaction(async (trx) => {
      if (await this.d.saved.unsave(trx, me.actorId, messageId)) {
        await this.d.outbox.append(trx, [actorEvent(me.workspaceId, me.actorId, 'saved.updated', { saved: savedView(messageId, null) }, conversationId)]);
      }
    });
    return savedView(messageId, null);
  }

  /** The caller's saved live messages of this workspace, newest save first. */
  async listSaved(ctx: CallContext, q: { cursor?: string | undefined; limit: number }): Promise<Page<MessageView>> {
    const me = callerOf(ctx);
    const limit = pageLimit(q.limit);
    const beforeSeq = q.cursor === undefined ? null : decodeCursor(q.cursor);
    const rows = await this.d.saved.page({ actorId: me.actorId, workspaceId: me.workspaceId, beforeSeq, limit: limit + 1 });
    const items = rows.slice(0, limit);
    const assets = await this.d.attachments.of(ctx, items.map((r) => r.message));
    return { items: items.map((r) => messageView(r.message, r.savedAt, assets)), nextCursor: rows.length > limit ? encodeCursor(items.at(-1)!.seq) : null };
  }

  /** Adds the caller's reaction; a repeat changes nothing (same `reactions_version`). */
  async react(ctx: CallContext, conversationId: string, messageId: string, rawEmoji: string) {
    const emoji = reactionEmoji(rawEmoji);
    return this.changeReaction(ctx, conversationId, messageId, async (trx, message, actorId) => {
      if (message.deletedAt !== null) throw messageDeleted();
      const present = message.reactions.find((r) => r.emoji === emoji);
      if (present?.actor_ids.includes(actorId)) return false;
      if (!present && message.reactions.length >= LIMITS.distinctEmoji) {
        throw invalidArgument('too_many_reactions', `A message holds at most ${LIMITS.distinctEmoji} different emoji.`);
      }
      return this.d.reactions.add(trx, messageId, emoji, actorId);
    });
  }

  /** Removes only the caller's reaction; idempotent. */
  async unreact(ctx: CallContext, conversationId: string, messageId: string, rawEmoji: string) {
    const emoji = reactionEmoji(rawEmoji);
    return this.changeReaction(ctx, conversationId, messageId, (trx, message, actorId) =>
      message.deletedAt === null ? this.d.reactions.remove(trx, messageId, emoji, actorId) : Promise.resolve(false),
    );
  }

  /** Runs a reaction change under the message's row lock, then rewrites the summary and records the event if it changed. */
  private async changeReaction(
    ctx: CallContext,
    conversationId: string,
    messageId: string,
    change: (trx: Knex.Transaction, message: Message, actorId: string) => Promise<boolean>,
  ) {
    const me = callerOf(ctx);
    const message = await this.d.db.transaction(async (trx) => {
      const locked = isUuid(messageId) ? await this.d.messages.lock(trx, me.workspaceId, messageId) : undefined;
      if (!locked || locked.conversationId !== conversationId) throw notFound('No such message in this conversation.');
      if (!(await change(trx, locked, me.actorId))) return locked;
      const updated = await this.d.reactions.summarise(trx, messageId);
      await this.d.outbox.append(trx, [reactionsEvent(updated)]);
      return updated;
    });
    return reactionsView(message);
  }
}
