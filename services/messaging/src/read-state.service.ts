import type { CallContext } from '@wms/kit/context';
import type { Knex } from '@wms/kit/db';
import { invalidArgument, notFound } from '@wms/kit/errors';
import { type Caller, callerOf } from '@wms/kit/caller';
import type { Attachments } from './attachments.ts';
import { actorEvent } from './domain/events.ts';
import type { AssetView, Message } from './domain/message.ts';
import { messageView, type ReadState, readStateView } from './domain/views.ts';
import { type Page, pageLimit } from './domain/paging.ts';
import { findMessage, requireChannel } from './lookups.ts';
import type { ChannelStore } from './store/channel.store.ts';
import type { MessageStore } from './store/message.store.ts';
import type { OutboxStore } from './store/outbox.store.ts';
import type { ReadStateStore, ThreadMark, ThreadRow } from './store/read-state.store.ts';

export interface ReadStateDeps {
  db: Knex;
  attachments: Attachments;
  channels: ChannelStore;
  messages: MessageStore;
  readStates: ReadStateStore;
  outbox: OutboxStore;
}

const wrongConversation = () => invalidArgument('wrong_conversation', 'That message belongs to another conversation.');

/** Implicit following (contract §5): the root's author and the actors it mentions follow until they choose. */
const followsImplicitly = (root: Message, actorId: string) => root.authorActorId === actorId || root.mentionedActorIds.includes(actorId);

/** Read state of conversations and threads, thread subscriptions and the thread inbox (contract §5). */
export class ReadStateService {
  constructor(private readonly d: ReadStateDeps) {}

  async conversation(ctx: CallContext, conversationId: string) {
    const me = callerOf(ctx);
    await requireChannel(this.d.channels, me.workspaceId, conversationId);
    const mark = await this.d.readStates.conversationMark(me.actorId, conversationId);
    const counts = await this.d.readStates.conversationCounts(me.actorId, conversationId, mark.lastReadMessageId);
    return readStateView({ conversationId, threadRootId: null, following: null, ...mark, ...counts });
  }

  /** Moves the caller's mark (backwards too) to any message of the conversation, replies included. */
  async markConversation(ctx: CallContext, conversationId: string, messageId: string) {
    const me = callerOf(ctx);
    await requireChannel(this.d.channels, me.workspaceId, conversationId);
    const message = await this.requireWorkspaceMessage(me, messageId);
    if (message.conversationId !== conversationId) throw wrongConversation();
    return this.d.db.transaction(async (trx) => {
      const mark = await this.d.readStates.markConversation(trx, me.actorId, conversationId, messageId);
      const counts = await this.d.readStates.conversationCounts(me.actorId, conversationId, mark.lastReadMessageId, trx);
      return this.recorded(trx, me, { conversationId, threadRootId: null, following: null, ...mark, ...counts });
    });
  }

  async thread(ctx: CallContext, rootId: string) {
    const me = callerOf(ctx);
    const root = await this.requireRoot(me, rootId);
    return readStateView(await this.threadState(me, root, await this.d.readStates.threadMark(me.actorId, root.id), this.d.db));
  }

  /** Moves the caller's mark in a thread to its root or one of its replies. */
  async markThread(ctx: CallContext, rootId: string, messageId: string) {
    const me = callerOf(ctx);
    const root = await this.requireRoot(me, rootId);
    const message = await this.requireWorkspaceMessage(me, messageId);
    if (message.id !== root.id && message.parentMessageId !== root.id) throw wrongConversation();
    return this.d.db.transaction(async (trx) => {
      const mark = await this.d.readStates.markThread(trx, me.actorId, root, messageId);
      return this.recorded(trx, me, await this.threadState(me, root, mark, trx));
    });
  }

  /** An explicit follow or unfollow; an unfollow holds until the caller replies or is mentioned again. */
  async subscribe(ctx: CallContext, rootId: string, following: boolean) {
    const me = callerOf(ctx);
    const root = await this.requireRoot(me, rootId);
    return this.d.db.transaction(async (trx) => {
      const mark = await this.d.readStates.setFollowing(trx, me.actorId, root, following);
      return this.recorded(trx, me, await this.threadState(me, root, mark, trx));
    });
  }

  /** The thread inbox: followed threads (or all of the workspace), optionally only unread ones, by root id descending. */
  async threads(ctx: CallContext, q: { following: boolean; unread: boolean; cursor?: string | undefined; limit: number }): Promise<Page<ReturnType<typeof threadView>>> {
    const me = callerOf(ctx);
    const limit = pageLimit(q.limit);
    const rows = await this.d.readStates.threads({ workspaceId: me.workspaceId, actorId: me.actorId, following: q.following, unread: q.unread, before: q.cursor ?? null, limit: limit + 1 });
    const items = rows.slice(0, limit);
    const assets = await this.d.attachments.of(ctx, items.map((t) => t.root.message));
    return { items: items.map((t) => threadView(t, assets)), nextCursor: rows.length > limit ? items.at(-1)!.root.message.id : null };
  }

  private async threadState(me: Caller, root: Message, mark: ThreadMark, db: Knex): Promise<ReadState> {
    const counts = await this.d.readStates.threadCounts(me.actorId, root.id, mark.lastReadMessageId, db);
    return { conversationId: root.conversationId, threadRootId: root.id, ...mark, following: mark.following ?? followsImplicitly(root, me.actorId), ...counts };
  }

  /** Writes the `read_state.updated` event for the caller's own channel and returns the view. */
  private async recorded(trx: Knex.Transaction, me: Caller, state: ReadState) {
    const view = readStateView(state);
    await this.d.outbox.append(trx, [actorEvent(me.workspaceId, me.actorId, 'read_state.updated', { read_state: view }, state.conversationId)]);
    return view;
  }

  /** A thread root: a top-level message of the caller's workspace (path ids are strings: anything else is 404). */
  private async requireRoot(me: Caller, rootId: string): Promise<Message> {
    const found = await findMessage(this.d.messages, me, rootId);
    if (!found || found.message.parentMessageId !== null) throw notFound('No such thread.');
    return found.message;
  }

  private async requireWorkspaceMessage(me: Caller, messageId: string): Promise<Message> {
    const found = await findMessage(this.d.messages, me, messageId);
    if (!found) throw notFound('No such message.');
    return found.message;
  }
}

function threadView(t: ThreadRow, assets: ReadonlyMap<string, AssetView>) {
  return {
    id: t.root.message.id,
    conversation_id: t.root.message.conversationId,
    root_message: messageView(t.root.message, t.root.savedAt, assets),
    reply_count: t.root.message.replyCount,
    last_reply_at: t.root.message.lastReplyAt?.toISOString() ?? null,
    following: t.following,
    last_read_message_id: t.lastReadMessageId,
    unread_count: t.unreadCount,
    mention_count: t.mentionCount,
  };
}
