import { type Caller, callerOf } from '@wms/kit/caller';
import type { CallContext } from '@wms/kit/context';
import { forbidden, invalidInput, notFound } from '@wms/kit/errors';
import { isUuid, MAX_BATCH_IDS, uuidv7 } from '@wms/kit/ids';
import type { Logger } from '@wms/kit/logger';
import type { Transact, Tx } from '@wms/kit/transactions';
import { type Attachment, type Attachments, type MessageRead, readOf } from './adapters/attachments.ts';
import { childrenOf, parseBody } from './domain/markdown.ts';
import {
  canDelete,
  type Message,
  type MessageChild,
  messageDeleted,
  type MessageVersion,
  replyRefusal,
  requireMentionLimit,
  validateEditedBody,
  validateNewMessage,
} from './domain/message.ts';
import { idCursor, type Page, pageLimit } from './domain/paging.ts';
import type { MessagingEvent } from './event-payloads.ts';
import { noSuchConversation, requireMessage } from './lookups.ts';
import type { MessageStore, NewMessage, Posted } from './store/message.store.ts';
import type { OutboxStore } from './store/outbox.store.ts';
import type { WorkspaceMembers } from './adapters/workspace-members.ts';

export interface MessageDeps {
  transact: Transact;
  log: Logger;
  attachments: Attachments;
  messages: MessageStore;
  outbox: OutboxStore;
  members: WorkspaceMembers;
}

export interface CreateMessageInput {
  conversationId: string;
  bodyText: string;
  parentMessageId?: string | undefined;
  assetIds: string[];
  mentionedActorIds: string[];
  loading: boolean;
  clientMessageId?: string | undefined;
}

/** The message lifecycle (contract §4): post, reply, list, read, edit and soft delete, with their events. */
export class MessageService {
  constructor(private readonly d: MessageDeps) {}

  async create(ctx: CallContext, input: CreateMessageInput): Promise<MessageRead> {
    const me = callerOf(ctx);
    const { mentionedActorIds: sent, assetIds } = validateNewMessage(input);
    const { children, mentionedActorIds } = await this.written(ctx, input.bodyText, sent);
    if (!isUuid(input.conversationId)) throw noSuchConversation();
    const id = uuidv7();
    let attached = false;
    const outcome = await this.d
      .transact<{ created: MessageRead } | { retryOf: string }>(async (tx) => {
        if (input.clientMessageId !== undefined) {
          const heldBy = await this.d.messages.claimClientId(
            {
              workspaceId: me.workspaceId,
              conversationId: input.conversationId,
              actorId: me.actorId,
              clientMessageId: input.clientMessageId,
            },
            id,
            tx,
          );
          if (heldBy) return { retryOf: heldBy };
        }
        const draft = {
          id,
          workspaceId: me.workspaceId,
          conversationId: input.conversationId,
          parentMessageId: input.parentMessageId ?? null,
          authorActorId: me.actorId,
          bodyText: input.bodyText,
          children,
          mentionedActorIds,
          assetIds,
          loading: input.loading,
        };
        const posted: (Posted & { root?: Message }) | undefined =
          draft.parentMessageId === null
            ? await this.d.messages.insert(draft, tx)
            : await this.postReply(me, { ...draft, parentMessageId: draft.parentMessageId }, tx);
        // The insert reads the channel: none in the workspace (or none the author may read), no message.
        if (!posted) throw noSuchConversation();
        const { message, joinedAt, root } = posted;
        // Last before the outbox: a refusal (400) rolls the message back; the asset service commits first.
        // Set before the call: an attach whose answer is lost may still have happened.
        attached = message.assetIds.length > 0;
        const created = readOf({ message, savedAt: null }, await this.d.attachments.attach(ctx, message));
        await this.d.messages.addMentions(message, root?.id ?? null, tx);
        const events: MessagingEvent[] = [{ type: 'message.created', message: created }];
        if (root) events.push({ type: 'thread.updated', root });
        // Posting in a public channel joins the poster (contract §9).
        if (joinedAt) {
          const member = { channelId: message.conversationId, actorId: me.actorId, addedByActorId: null, joinedAt };
          events.push({ type: 'channel_member.added', workspaceId: me.workspaceId, kind: 'public', member });
        }
        await this.d.outbox.append(events, tx);
        return { created };
      })
      .catch(async (err: unknown) => {
        if (attached) await this.undoAttach(ctx, me, id);
        throw err;
      });
    if ('created' in outcome) {
      // An upload that finished before this post committed could not announce its asset: this post does.
      if (outcome.created.assets.some((a) => a.status === 'pending'))
        await this.announceAssets(ctx, input.conversationId, id, outcome.created.assets).catch((err: unknown) =>
          this.d.log.warn({ err, message_id: id }, 'could not tell whether an attached asset became ready'),
        );
      return outcome.created;
    }
    // A retry of a post that already succeeded: the original message, as it is now.
    return this.d.attachments.readOne(
      ctx,
      await requireMessage(this.d.messages, me, input.conversationId, outcome.retryOf),
    );
  }

  /** Newest first: top-level messages, or the replies of one root. */
  async list(
    ctx: CallContext,
    q: { conversationId: string; parentMessageId?: string | undefined; cursor?: string | undefined; limit: number },
  ): Promise<Page<MessageRead>> {
    const me = callerOf(ctx);
    const limit = pageLimit(q.limit);
    const before = idCursor(q.cursor);
    if (!isUuid(q.conversationId)) throw noSuchConversation();
    // A root of the conversation names a channel of the workspace; the page reads the channel itself.
    if (q.parentMessageId !== undefined) {
      const root = await requireMessage(this.d.messages, me, q.conversationId, q.parentMessageId);
      const refusal = root.message.parentMessageId === null ? undefined : replyRefusal(root.message);
      if (refusal) throw refusal;
    }
    const rows = await this.d.messages.page({
      workspaceId: me.workspaceId,
      conversationId: q.conversationId,
      parentMessageId: q.parentMessageId ?? null,
      before,
      limit: limit + 1,
      actorId: me.actorId,
    });
    if (!rows) throw noSuchConversation();
    const items = await this.d.attachments.read(ctx, rows.slice(0, limit));
    return { items, nextCursor: rows.length > limit ? items.at(-1)!.message.id : null };
  }

  async get(ctx: CallContext, conversationId: string, messageId: string): Promise<MessageRead> {
    return this.d.attachments.readOne(
      ctx,
      await requireMessage(this.d.messages, callerOf(ctx), conversationId, messageId),
    );
  }

  /** Only the author edits; a deleted message is 409. The text replaced is kept in the message's history. */
  async edit(ctx: CallContext, conversationId: string, messageId: string, bodyText: string): Promise<MessageRead> {
    const me = callerOf(ctx);
    validateEditedBody(bodyText);
    const found = await requireMessage(this.d.messages, me, conversationId, messageId);
    if (found.message.authorActorId !== me.actorId) throw forbidden('Only the author can edit a message.');
    const text = await this.written(ctx, bodyText, [], 'body.body_text');
    return this.d.transact(async (tx) => {
      // Locked first: its mentions, attachments and versions are read as no concurrent edit or announce can change them.
      const current = await this.d.messages.lockLive(me.workspaceId, messageId, tx);
      if (!current) throw messageDeleted();
      requireMentionLimit([...current.mentionedActorIds, ...text.mentionedActorIds], 'body.body_text');
      const done = await this.d.messages.edit(me.workspaceId, messageId, { bodyText, ...text }, tx);
      if (!done) throw messageDeleted();
      const { message } = done;
      const added = done.added.filter((id) => id !== me.actorId);
      if (added.length > 0) {
        await this.d.messages.addMentions({ ...message, mentionedActorIds: added }, message.parentMessageId, tx);
        if (message.parentMessageId !== null) {
          // The root's lock first, as a reply's takes it before the reads it writes.
          const root = await this.d.messages.lockRoot(me.workspaceId, message.parentMessageId, tx);
          if (root) await this.d.messages.follow(root, added, added, tx);
        }
      }
      const edited = readOf({ message, savedAt: found.savedAt }, await this.d.attachments.of(ctx, [message]));
      await this.d.outbox.append([{ type: 'message.updated', message: edited }], tx);
      return edited;
    });
  }

  /**
   * An asset attached to the message became ready (the asset service asks): its readers get `message.updated` with the
   * message as it now reads, written under the message's row lock so that no edit's event comes after it with older
   * text. Nothing when the message is deleted or not committed yet (its post's own check announces it then), nor when
   * `pending` (the attachments as the post answered) are all still pending.
   */
  async announceAssets(
    ctx: CallContext,
    conversationId: string,
    messageId: string,
    pending?: Attachment[],
  ): Promise<void> {
    const me = callerOf(ctx);
    if (!isUuid(messageId)) return;
    await this.d.transact(async (tx) => {
      const message = await this.d.messages.lockLive(me.workspaceId, messageId, tx);
      if (!message || message.conversationId !== conversationId) return;
      const assets = await this.d.attachments.of(ctx, [message]);
      if (pending && pending.every((a) => assets.get(a.id)?.status !== 'ready')) return;
      const updated = readOf({ message, savedAt: null }, assets);
      await this.d.outbox.append([{ type: 'message.updated', message: updated }], tx);
    });
  }

  /** Every text the message has had, oldest first, the current one last; none when it is deleted (contract §13). */
  async history(ctx: CallContext, conversationId: string, messageId: string): Promise<MessageVersion[]> {
    const me = callerOf(ctx);
    await requireMessage(this.d.messages, me, conversationId, messageId);
    return this.d.messages.history(me.workspaceId, messageId);
  }

  /** The author, owners and admins delete; deleting a deleted message again succeeds. */
  async delete(ctx: CallContext, conversationId: string, messageId: string): Promise<void> {
    const me = callerOf(ctx);
    const { message } = await requireMessage(this.d.messages, me, conversationId, messageId);
    const role = message.authorActorId === me.actorId ? undefined : await this.d.members.roleOf(ctx, me);
    if (!canDelete(message, me.actorId, role))
      throw forbidden('Only the author, owners and admins can delete a message.');
    const deleted = await this.d.transact(async (tx) => {
      const placeholder = await this.d.messages.softDelete(me.workspaceId, messageId, tx);
      if (placeholder)
        await this.d.outbox.append(
          [{ type: 'message.deleted', message: readOf({ message: placeholder, savedAt: null }) }],
          tx,
        );
      return placeholder;
    });
    // The placeholder shows no assets at once; their removal may fail without undoing the delete (the cleanup worker
    // retries it).
    if (deleted && message.assetIds.length > 0) {
      await this.d.attachments
        .release(ctx, [messageId])
        .then(() => this.d.messages.forgetAssets(me.workspaceId, [messageId]))
        .catch((err: unknown) =>
          this.d.log.warn({ err, message_id: messageId }, 'could not release assets; the cleanup worker will'),
        );
    }
  }

  /**
   * The asset service attached assets to a message whose transaction then failed: they are detached, so a retry can
   * attach them. A commit that failed on the wire may have happened, so only what no message holds is detached; when
   * that cannot be told or done, the assets stay attached (they are never lost) and it is logged.
   */
  private async undoAttach(ctx: CallContext, me: Caller, messageId: string): Promise<void> {
    try {
      if (await this.d.messages.find(me.workspaceId, messageId, me.actorId)) return;
      await this.d.attachments.detach(ctx, messageId);
    } catch (err) {
      this.d.log.warn({ err, message_id: messageId }, 'could not detach the assets of a message that did not commit');
    }
  }

  /** Posts the reply on its root (counted, the thread followed), or says why it cannot go there (404, 400 not_a_root_message, 409 thread_root_deleted). */
  private async postReply(
    me: Caller,
    draft: NewMessage & { parentMessageId: string },
    tx: Tx,
  ): Promise<Posted & { root: Message }> {
    const posted = isUuid(draft.parentMessageId)
      ? await this.d.messages.insertReply(draft, [me.actorId, ...draft.mentionedActorIds], tx)
      : undefined;
    if (posted) return { root: posted.root, message: posted.reply, joinedAt: posted.joinedAt };
    // On the transaction's connection: a refusal must not wait for a second one from a pool its peers may hold.
    const parent = isUuid(draft.parentMessageId)
      ? await this.d.messages.find(me.workspaceId, draft.parentMessageId, me.actorId, tx)
      : undefined;
    const refusal =
      parent && parent.message.conversationId === draft.conversationId ? replyRefusal(parent.message) : undefined;
    throw refusal ?? notFound('No such message in this conversation.');
  }

  /**
   * A body as written (contract §13): its nodes, and its mentions: the ids `sent` (which must name active actors of
   * the workspace, else 400), then those of its `<@actor_id>` that do (the others stay text); at most 50 together,
   * else 400 on `field`. One lookup of the actors named.
   */
  private async written(
    ctx: CallContext,
    bodyText: string,
    sent: string[],
    field = 'body.mentioned_actor_ids',
  ): Promise<{ children: MessageChild[]; mentionedActorIds: string[] }> {
    const parsed = parseBody(bodyText);
    const named = parsed.mentionIds.slice(0, MAX_BATCH_IDS - sent.length);
    const names = await this.d.members.activeNames(ctx, [...new Set([...sent, ...named])]);
    const unknown = sent.filter((id) => !names.has(id));
    if (unknown.length > 0)
      throw invalidInput([
        { field: 'body.mentioned_actor_ids', message: `not actors of this workspace: ${unknown.join(', ')}` },
      ]);
    const mentionedActorIds = [...new Set([...sent, ...named.filter((id) => names.has(id))])];
    requireMentionLimit(mentionedActorIds, field);
    return { children: childrenOf(parsed, names), mentionedActorIds };
  }
}
