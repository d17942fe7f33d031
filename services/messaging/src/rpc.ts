import { invalidInput } from '@wms/kit/errors';
import type { AsyncHandlers } from '@wms/kit/grpc-server';
import { isUuid } from '@wms/kit/ids';
import type { Channel as ChannelMessage } from '@wms/protos/gen/wms/messaging/v1/Channel';
import type { Message as MessageProto } from '@wms/protos/gen/wms/messaging/v1/Message';
import type { MessagingServiceDefinition } from '@wms/protos/gen/wms/messaging/v1/MessagingService';
import type { ReadState as ReadStateProto } from '@wms/protos/gen/wms/messaging/v1/ReadState';
import type { ChannelService } from './channel.service.ts';
import type { Channel } from './domain/channel.ts';
import type { MessageView, readStateView, savedView } from './domain/views.ts';
import type { MessageActionsService } from './message-actions.service.ts';
import type { Page } from './domain/paging.ts';
import type { MessageService } from './message.service.ts';
import type { ReadStateService } from './read-state.service.ts';
import type { PurgeStore } from './store/purge.store.ts';

const toChannel = (c: Channel): ChannelMessage => ({
  id: c.id,
  workspace_id: c.workspaceId,
  name: c.name,
  topic: c.topic ?? undefined,
  created_by_actor_id: c.createdByActorId,
  created_at: c.createdAt.toISOString(),
  updated_at: c.updatedAt.toISOString(),
});

/** Views use null for "no value"; protobuf leaves such fields unset. */
const unset = <T>(value: T | null): T | undefined => value ?? undefined;

const toMessage = (m: MessageView): MessageProto => ({
  ...m,
  parent_message_id: unset(m.parent_message_id),
  loading_expires_at: unset(m.loading_expires_at),
  saved_at: unset(m.saved_at),
  last_reply_at: unset(m.last_reply_at),
  edited_at: unset(m.edited_at),
  deleted_at: unset(m.deleted_at),
  assets: m.assets.map((a) => ({ ...a, message_id: unset(a.message_id), preview_kind: unset(a.preview_kind) })),
});

const toPage = <T, P>(page: Page<T>, map: (item: T) => P) => ({ items: page.items.map(map), next_cursor: unset(page.nextCursor) });

const toReadState = (r: ReturnType<typeof readStateView>): ReadStateProto => ({
  ...r,
  thread_root_id: unset(r.thread_root_id),
  last_read_message_id: unset(r.last_read_message_id),
  last_read_at: unset(r.last_read_at),
  following: unset(r.following),
  updated_at: unset(r.updated_at),
});

const toSaved = (s: ReturnType<typeof savedView>) => ({ ...s, saved_at: unset(s.saved_at) });

export interface MessagingServices {
  channels: ChannelService;
  messages: MessageService;
  actions: MessageActionsService;
  readStates: ReadStateService;
  purge: PurgeStore;
}

export function messagingHandlers({ channels, messages, actions, readStates, purge }: MessagingServices): AsyncHandlers<MessagingServiceDefinition> {
  return {
    CreateChannel: async (req, ctx) => toChannel(await channels.createChannel(ctx, { name: req.name, topic: req.topic })),
    ListChannels: async (_req, ctx) => ({ channels: (await channels.listChannels(ctx)).map(toChannel) }),
    GetChannel: async (req, ctx) => toChannel(await channels.getChannel(ctx, req.channel_id)),
    PurgeWorkspace: async (req) => {
      if (!isUuid(req.workspace_id)) throw invalidInput([{ field: 'workspace_id', message: 'must be a UUID' }]);
      return { done: await purge.purgeBatch(req.workspace_id) };
    },

    CreateMessage: async (req, ctx) =>
      toMessage(
        await messages.create(ctx, {
          conversationId: req.conversation_id,
          bodyText: req.body_text,
          parentMessageId: req.parent_message_id,
          assetIds: req.asset_ids,
          mentionedActorIds: req.mentioned_actor_ids,
          loading: req.loading,
          clientMessageId: req.client_message_id,
        }),
      ),
    ListMessages: async (req, ctx) =>
      toPage(
        await messages.list(ctx, { conversationId: req.conversation_id, parentMessageId: req.parent_message_id, cursor: req.cursor, limit: req.limit }),
        toMessage,
      ),
    GetMessage: async (req, ctx) => toMessage(await messages.get(ctx, req.conversation_id, req.message_id)),
    UpdateMessage: async (req, ctx) => toMessage(await messages.edit(ctx, req.conversation_id, req.message_id, req.body_text)),
    DeleteMessage: async (req, ctx) => {
      await messages.delete(ctx, req.conversation_id, req.message_id);
      return {};
    },

    SaveMessage: async (req, ctx) => toSaved(await actions.save(ctx, req.conversation_id, req.message_id)),
    UnsaveMessage: async (req, ctx) => toSaved(await actions.unsave(ctx, req.conversation_id, req.message_id)),
    ListSavedMessages: async (req, ctx) => toPage(await actions.listSaved(ctx, { cursor: req.cursor, limit: req.limit }), toMessage),
    AddReaction: async (req, ctx) => actions.react(ctx, req.conversation_id, req.message_id, req.emoji),
    RemoveReaction: async (req, ctx) => actions.unreact(ctx, req.conversation_id, req.message_id, req.emoji),

    GetConversationReadState: async (req, ctx) => toReadState(await readStates.conversation(ctx, req.conversation_id)),
    UpdateConversationReadState: async (req, ctx) => toReadState(await readStates.markConversation(ctx, req.conversation_id, req.last_read_message_id)),
    GetThreadReadState: async (req, ctx) => toReadState(await readStates.thread(ctx, req.root_id)),
    UpdateThreadReadState: async (req, ctx) => toReadState(await readStates.markThread(ctx, req.root_id, req.last_read_message_id)),
    UpdateThreadSubscription: async (req, ctx) => toReadState(await readStates.subscribe(ctx, req.root_id, req.following)),
    ListThreads: async (req, ctx) =>
      toPage(await readStates.threads(ctx, { following: req.following, unread: req.unread, cursor: req.cursor, limit: req.limit }), (t) => ({
        ...t,
        root_message: toMessage(t.root_message),
        last_reply_at: unset(t.last_reply_at),
        last_read_message_id: unset(t.last_read_message_id),
      })),
  };
}
