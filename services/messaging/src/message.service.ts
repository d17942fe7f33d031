import type { CallContext } from '@wms/kit/context';
import type { Knex } from '@wms/kit/db';
import type { Logger } from '@wms/kit/logger';
import { forbidden, invalidInput, notFound } from '@wms/kit/errors';
import { isUuid, uuidv7 } from '@wms/kit/ids';
import type { AsyncClient } from '@wms/kit/grpc-client';
import type { WorkspaceServiceDefinition } from '@wms/protos/gen/wms/workspace/v1/WorkspaceService';
import { type Caller, callerOf } from '@wms/kit/caller';
import type { Attachments } from './attachments.ts';
import { type Page, pageLimit } from './domain/paging.ts';
import { requireChannel, requireMessage } from './lookups.ts';
import { messageEvent, threadEvent } from './domain/events.ts';
import { type AssetView, canDelete, type Message, messageDeleted, replyRefusal, validateEditedBody, validateNewMessage } from './domain/message.ts';
import { type MessageView, messageView } from './domain/views.ts';
import type { ChannelStore } from './store/channel.store.ts';
import type { MessageStore } from './store/message.store.ts';
import type { OutboxStore } from './store/outbox.store.ts';
import type { ReadStateStore } from './store/read-state.store.ts';

export type WorkspaceClient = Pick<AsyncClient<WorkspaceServiceDefinition>, 'GetActorsByIds' | 'ResolveMembership'>;

export interface MessagingDeps {
  db: Knex;
  log: Logger;
  attachments: Attachments;
  channels: ChannelStore;
  messages: MessageStore;
  readStates: ReadStateStore;
  outbox: OutboxStore;
  workspace: WorkspaceClient;
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
  constructor(private readonly d: MessagingDeps) {}

  async create(ctx: CallContext, input: CreateMessageInput): Promise<MessageView> {
    const me = callerOf(ctx);
    const { mentionedActorIds, assetIds } = validateNewMessage(input);
    await this.requireMentionable(ctx, mentionedActorIds);
    await requireChannel(this.d.channels, me.workspaceId, input.conversationId);
    const id = uuidv7();
    let attached = false;
    const outcome = await this.d.db.transaction<{ message: Message; assets: Map<string, AssetView> } | { retryOf: string }>(async (trx) => {
      if (input.clientMessageId !== undefined) {
        const heldBy = await this.d.messages.claimClientId(trx, { conversationId: input.conversationId, actorId: me.actorId, clientMessageId: input.clientMessageId }, id);
        if (heldBy) return { retryOf: heldBy };
      }
      const root = input.parentMessageId === undefined ? undefined : await this.countReply(trx, me, input.conversationId, input.parentMessageId);
      const message = await this.d.messages.insert(trx, {
        id,
        workspaceId: me.workspaceId,
        conversationId: input.conversationId,
        parentMessageId: root?.id ?? null,
        authorActorId: me.actorId,
        bodyText: input.bodyText,
        mentionedActorIds,
        assetIds,
        loading: input.loading,
      });
      // Last before the outbox: a refusal (400) rolls the message back; the asset service commits first.
      // Set before the call: an attach whose answer is lost may still have happened.
      attached = message.assetIds.length > 0;
      const assets = await this.d.attachments.attach(ctx, message);
      await this.d.messages.addMentions(trx, message, root?.id ?? null);
      if (root) await this.d.readStates.follow(trx, root, [me.actorId, ...mentionedActorIds], [root.authorActorId, ...root.mentionedActorIds]);
      await this.d.outbox.append(trx, [messageEvent('message.created', message, assets), ...(root ? [threadEvent(root)] : [])]);
      return { message, assets };
    }).catch(async (err: unknown) => {
      if (attached) await this.undoAttach(ctx, me, id);
      throw err;
    });
    if ('message' in outcome) return messageView(outcome.message, null, outcome.assets);
    // A retry of a post that already succeeded: the original message, as it is now.
    const original = await requireMessage(this.d.messages, me, input.conversationId, outcome.retryOf);
    return messageView(original.message, original.savedAt, await this.d.attachments.of(ctx, [original.message]));
  }

  /** Newest first: top-level messages, or the replies of one root. */
  async list(ctx: CallContext, q: { conversationId: string; parentMessageId?: string | undefined; cursor?: string | undefined; limit: number }): Promise<Page<MessageView>> {
    const me = callerOf(ctx);
    const limit = pageLimit(q.limit);
    await requireChannel(this.d.channels, me.workspaceId, q.conversationId);
    if (q.parentMessageId !== undefined) {
      const root = await requireMessage(this.d.messages, me, q.conversationId, q.parentMessageId);
      const refusal = root.message.parentMessageId === null ? undefined : replyRefusal(root.message);
      if (refusal) throw refusal;
    }
    const rows = await this.d.messages.page({
      workspaceId: me.workspaceId,
      conversationId: q.conversationId,
      parentMessageId: q.parentMessageId ?? null,
      before: q.cursor ?? null,
      limit: limit + 1,
      actorId: me.actorId,
    });
    const items = rows.slice(0, limit);
    const assets = await this.d.attachments.of(ctx, items.map((r) => r.message));
    return { items: items.map((r) => messageView(r.message, r.savedAt, assets)), nextCursor: rows.length > limit ? items.at(-1)!.message.id : null };
  }

  async get(ctx: CallContext, conversationId: string, messageId: string): Promise<MessageView> {
    const found = await requireMessage(this.d.messages, callerOf(ctx), conversationId, messageId);
    return messageView(found.message, found.savedAt, await this.d.attachments.of(ctx, [found.message]));
  }

  /** Only the author edits; a deleted message is 409. */
  async edit(ctx: CallContext, conversationId: string, messageId: string, bodyText: string): Promise<MessageView> {
    const me = callerOf(ctx);
    validateEditedBody(bodyText);
    const found = await requireMessage(this.d.messages, me, conversationId, messageId);
    if (found.message.authorActorId !== me.actorId) throw forbidden('Only the author can edit a message.');
    const assets = await this.d.attachments.of(ctx, [found.message]);
    const edited = await this.d.db.transaction(async (trx) => {
      const message = await this.d.messages.edit(trx, messageId, bodyText);
      if (!message) throw messageDeleted();
      await this.d.outbox.append(trx, [messageEvent('message.updated', message, assets)]);
      return message;
    });
    return messageView(edited, found.savedAt, assets);
  }

  /** The author, owners and admins delete; deleting a deleted message again succeeds. */
  async delete(ctx: CallContext, conversationId: string, messageId: string): Promise<void> {
    const me = callerOf(ctx);
    const { message } = await requireMessage(this.d.messages, me, conversationId, messageId);
    const role = message.authorActorId === me.actorId ? undefined : await this.roleOf(ctx, me);
    if (!canDelete(message, me.actorId, role)) throw forbidden('Only the author, owners and admins can delete a message.');
    const deleted = await this.d.db.transaction(async (trx) => {
      const placeholder = await this.d.messages.softDelete(trx, messageId);
      if (placeholder) await this.d.outbox.append(trx, [messageEvent('message.deleted', placeholder)]);
      return placeholder;
    });
    // The placeholder shows no assets at once; their removal may fail without undoing the delete (the cleanup worker
    // retries it).
    if (deleted && message.assetIds.length > 0) {
      await this.d.attachments
        .release(ctx, [messageId])
        .then(() => this.d.messages.forgetAssets([messageId]))
        .catch((err: unknown) => this.d.log.warn({ err, message_id: messageId }, 'could not release assets; the cleanup worker will'));
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

  /** Counts the reply on its root, or says why it cannot go there (404, 400 not_a_root_message, 409 thread_root_deleted). */
  private async countReply(trx: Knex.Transaction, me: Caller, conversationId: string, parentId: string): Promise<Message> {
    const root = isUuid(parentId) ? await this.d.messages.countReply(trx, conversationId, parentId, me.actorId) : undefined;
    if (root) return root;
    const parent = await requireMessage(this.d.messages, me, conversationId, parentId);
    throw replyRefusal(parent.message) ?? notFound('No such message in this conversation.');
  }

  /** Mentions must name active actors of the workspace: one batch call to the workspace service. */
  private async requireMentionable(ctx: CallContext, actorIds: string[]): Promise<void> {
    if (actorIds.length === 0) return;
    const { actors } = await this.d.workspace.GetActorsByIds({ ids: actorIds }, ctx);
    const active = new Set(actors.filter((a) => !a.deactivated_at).map((a) => a.id));
    const unknown = actorIds.filter((id) => !active.has(id));
    if (unknown.length > 0) throw invalidInput([{ field: 'body.mentioned_actor_ids', message: `not actors of this workspace: ${unknown.join(', ')}` }]);
  }

  /** The caller's role as the workspace service has it now (asked only when the rule needs it). */
  private async roleOf(ctx: CallContext, me: Caller): Promise<string> {
    const membership = await this.d.workspace.ResolveMembership({ workspace_id: me.workspaceId, user_id: me.userId }, ctx);
    return membership.role;
  }
}
