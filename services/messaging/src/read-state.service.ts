import { type Caller, callerOf } from '@wms/kit/caller';
import type { CallContext } from '@wms/kit/context';
import { invalidArgument, notFound } from '@wms/kit/errors';
import { isUuid } from '@wms/kit/ids';
import type { Transact, Tx } from '@wms/kit/transactions';
import type { Attachments, ThreadRead } from './adapters/attachments.ts';
import type { Message } from './domain/message.ts';
import { idCursor, type Page, pageLimit } from './domain/paging.ts';
import { followsImplicitly, type ReadState, type ThreadMark } from './domain/read-state.ts';
import { findMessage, requireChannel } from './lookups.ts';
import type { ChannelStore } from './store/channel.store.ts';
import type { MessageStore } from './store/message.store.ts';
import type { OutboxStore } from './store/outbox.store.ts';
import type { ReadStateStore } from './store/read-state.store.ts';

export interface ReadStateDeps {
  transact: Transact;
  attachments: Attachments;
  channels: ChannelStore;
  messages: MessageStore;
  readStates: ReadStateStore;
  outbox: OutboxStore;
}

const wrongConversation = () => invalidArgument('wrong_conversation', 'That message belongs to another conversation.');

/** Read state of conversations and threads, thread subscriptions and the thread inbox (contract §5). */
export class ReadStateService {
  constructor(private readonly d: ReadStateDeps) {}

  async conversation(ctx: CallContext, conversationId: string): Promise<ReadState> {
    const me = callerOf(ctx);
    await requireChannel(this.d.channels, me, conversationId);
    const mark = await this.d.readStates.conversationMark(me.workspaceId, me.actorId, conversationId);
    const counts = await this.d.readStates.conversationCounts(
      me.actorId,
      { workspaceId: me.workspaceId, conversationId },
      mark.lastReadMessageId,
    );
    return { conversationId, threadRootId: null, following: null, ...mark, ...counts };
  }

  /** Moves the caller's mark (backwards too) to any message of the conversation, replies included. */
  async markConversation(ctx: CallContext, conversationId: string, messageId: string): Promise<ReadState> {
    const me = callerOf(ctx);
    const marked = await this.d.transact(async (tx) => {
      const mark =
        isUuid(conversationId) && isUuid(messageId)
          ? await this.d.readStates.markConversation(me.actorId, me.workspaceId, conversationId, messageId, tx)
          : undefined;
      return mark && this.recorded(me, { conversationId, threadRootId: null, following: null, ...mark }, tx);
    });
    if (marked) return marked;
    // Nothing moved: why, in the contract's order (after the transaction, so no lookup waits for the pool while it holds a connection).
    await requireChannel(this.d.channels, me, conversationId);
    const message = await this.requireWorkspaceMessage(me, messageId);
    throw message.conversationId === conversationId ? notFound('No such message.') : wrongConversation();
  }

  async thread(ctx: CallContext, rootId: string): Promise<ReadState> {
    const me = callerOf(ctx);
    const root = await this.requireRoot(me, rootId);
    return this.threadState(me, root, await this.d.readStates.threadMark(root.workspaceId, me.actorId, root.id));
  }

  /** Moves the caller's mark in a thread to its root or one of its replies. */
  async markThread(ctx: CallContext, rootId: string, messageId: string): Promise<ReadState> {
    const me = callerOf(ctx);
    const root = await this.requireRoot(me, rootId);
    const message = await this.requireWorkspaceMessage(me, messageId);
    if (message.id !== root.id && message.parentMessageId !== root.id) throw wrongConversation();
    return this.d.transact(async (tx) => {
      const mark = await this.d.readStates.markThread(me.actorId, root, messageId, tx);
      return this.recorded(me, await this.threadState(me, root, mark, tx), tx);
    });
  }

  /** An explicit follow or unfollow; an unfollow holds until the caller replies or is mentioned again. */
  async subscribe(ctx: CallContext, rootId: string, following: boolean): Promise<ReadState> {
    const me = callerOf(ctx);
    const root = await this.requireRoot(me, rootId);
    return this.d.transact(async (tx) => {
      const mark = await this.d.readStates.setFollowing(me.actorId, root, following, tx);
      return this.recorded(me, await this.threadState(me, root, mark, tx), tx);
    });
  }

  /** The thread inbox: followed threads (or all of the workspace), optionally only unread ones, by root id descending. */
  async threads(
    ctx: CallContext,
    q: { following: boolean; unread: boolean; cursor?: string | undefined; limit: number },
  ): Promise<Page<ThreadRead>> {
    const me = callerOf(ctx);
    const limit = pageLimit(q.limit);
    const before = idCursor(q.cursor);
    const rows = await this.d.readStates.threads({
      workspaceId: me.workspaceId,
      actorId: me.actorId,
      following: q.following,
      unread: q.unread,
      before,
      limit: limit + 1,
    });
    const items = rows.slice(0, limit);
    const roots = await this.d.attachments.read(
      ctx,
      items.map((t) => t.root),
    );
    return {
      items: items.map((t, i) => ({ ...t, root: roots[i]! })),
      nextCursor: rows.length > limit ? items.at(-1)!.root.message.id : null,
    };
  }

  private async threadState(me: Caller, root: Message, mark: ThreadMark, tx?: Tx): Promise<ReadState> {
    const counts = await this.d.readStates.threadCounts(
      me.actorId,
      { workspaceId: root.workspaceId, rootId: root.id },
      mark.lastReadMessageId,
      tx,
    );
    return {
      conversationId: root.conversationId,
      threadRootId: root.id,
      ...mark,
      following: mark.following ?? followsImplicitly(root, me.actorId),
      ...counts,
    };
  }

  /** Records `read_state.updated` for the caller's own channel and returns the state. */
  private async recorded(me: Caller, state: ReadState, tx: Tx): Promise<ReadState> {
    await this.d.outbox.append(
      [{ type: 'read_state.updated', workspaceId: me.workspaceId, actorId: me.actorId, state }],
      tx,
    );
    return state;
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
