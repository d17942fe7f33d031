import type { ServiceHandlers } from '@wms/kit/grpc-server';
import { publicMessagePage, publicSearchPage, publicThreadPage } from '@wms/protos/public';
import type { ChannelService } from './channel.service.ts';
import type { MessageActionsService } from './message-actions.service.ts';
import type { MessageService } from './message.service.ts';
import type { ReadStateService } from './read-state.service.ts';
import type { SearchService } from './search.service.ts';
import {
  toChannel,
  toMember,
  toMessage,
  toMessageVersion,
  toPage,
  toReactions,
  toReadState,
  toSaved,
  toJsonBody,
  toThread,
} from './wire.ts';

export interface MessagingServices {
  channels: ChannelService;
  messages: MessageService;
  actions: MessageActionsService;
  readStates: ReadStateService;
  search: SearchService;
}

type Handlers = ServiceHandlers<'messaging'>;

export function messagingHandlers(s: MessagingServices): Handlers {
  return { ...channelHandlers(s), ...messageHandlers(s), ...readStateHandlers(s) };
}

/** Conversations and their members. */
const channelHandlers = ({ channels }: MessagingServices) =>
  ({
    CreateChannel: async (req, ctx) =>
      toChannel(
        await channels.createChannel(ctx, {
          name: req.name,
          topic: req.topic,
          kind: req.kind,
          memberActorIds: req.member_actor_ids,
        }),
      ),
    ListChannels: async (req, ctx) => ({ channels: (await channels.listChannels(ctx, req.q)).map(toChannel) }),
    GetChannel: async (req, ctx) => toChannel(await channels.getChannel(ctx, req.channel_id)),
    UpdateChannel: async (req, ctx) =>
      toChannel(
        await channels.updateChannel(ctx, req.channel_id, {
          name: req.name,
          topic: req.clear_topic ? null : req.topic,
        }),
      ),
    ListChannelMembers: async (req, ctx) =>
      toPage(await channels.listMembers(ctx, req.channel_id, { cursor: req.cursor, limit: req.limit }), toMember),
    AddChannelMember: async (req, ctx) => toMember(await channels.addMember(ctx, req.channel_id, req.actor_id)),
    RemoveChannelMember: async (req, ctx) => {
      await channels.removeMember(ctx, req.channel_id, req.actor_id);
      return {};
    },
    OpenDirectConversation: async (req, ctx) => {
      const { channel, created } = await channels.openDirect(ctx, req.actor_ids);
      return { channel: toChannel(channel), created };
    },
    ListConversations: async (req, ctx) =>
      toPage(
        await channels.sidebar(ctx, { kind: req.kind, unread: req.unread, cursor: req.cursor, limit: req.limit }),
        (c) => ({
          conversation: toChannel(c.conversation),
          read_state: toReadState(c.readState),
        }),
      ),
    ReadableConversations: async (req, ctx) => ({ ids: await channels.readable(ctx, req.ids) }),
    AdmitAgent: async (req, ctx) => {
      await channels.admitAgent(ctx, req.conversation_id, req.actor_id);
      return {};
    },
    PurgeWorkspace: async (req) => ({ done: await channels.purgeWorkspace(req.workspace_id) }),
  }) satisfies Partial<Handlers>;

/** Messages, bookmarks and reactions. */
const messageHandlers = ({ messages, actions }: MessagingServices) =>
  ({
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
      toJsonBody(
        publicMessagePage(
          toPage(
            await messages.list(ctx, {
              conversationId: req.conversation_id,
              parentMessageId: req.parent_message_id,
              cursor: req.cursor,
              limit: req.limit,
            }),
            toMessage,
          ),
        ),
      ),
    GetMessage: async (req, ctx) => toMessage(await messages.get(ctx, req.conversation_id, req.message_id)),
    AnnounceAssetsReady: async (req, ctx) => {
      await messages.announceAssets(ctx, req.conversation_id, req.message_id);
      return {};
    },
    GetMessageHistory: async (req, ctx) => ({
      versions: (await messages.history(ctx, req.conversation_id, req.message_id)).map(toMessageVersion),
    }),
    UpdateMessage: async (req, ctx) =>
      toMessage(await messages.edit(ctx, req.conversation_id, req.message_id, req.body_text)),
    DeleteMessage: async (req, ctx) => {
      await messages.delete(ctx, req.conversation_id, req.message_id);
      return {};
    },

    SaveMessage: async (req, ctx) => toSaved(await actions.save(ctx, req.conversation_id, req.message_id)),
    UnsaveMessage: async (req, ctx) => toSaved(await actions.unsave(ctx, req.conversation_id, req.message_id)),
    ListSavedMessages: async (req, ctx) =>
      toJsonBody(
        publicMessagePage(toPage(await actions.listSaved(ctx, { cursor: req.cursor, limit: req.limit }), toMessage)),
      ),
    AddReaction: async (req, ctx) =>
      toReactions(await actions.react(ctx, req.conversation_id, req.message_id, req.emoji)),
    RemoveReaction: async (req, ctx) =>
      toReactions(await actions.unreact(ctx, req.conversation_id, req.message_id, req.emoji)),
  }) satisfies Partial<Handlers>;

/** Read state, threads and search. */
const readStateHandlers = ({ readStates, search }: MessagingServices) =>
  ({
    GetConversationReadState: async (req, ctx) => toReadState(await readStates.conversation(ctx, req.conversation_id)),
    UpdateConversationReadState: async (req, ctx) =>
      toReadState(await readStates.markConversation(ctx, req.conversation_id, req.last_read_message_id)),
    GetThreadReadState: async (req, ctx) => toReadState(await readStates.thread(ctx, req.root_id)),
    UpdateThreadReadState: async (req, ctx) =>
      toReadState(await readStates.markThread(ctx, req.root_id, req.last_read_message_id)),
    UpdateThreadSubscription: async (req, ctx) =>
      toReadState(await readStates.subscribe(ctx, req.root_id, req.following)),
    SearchMessages: async (req, ctx) =>
      toJsonBody(
        publicSearchPage(
          toPage(
            await search.search(ctx, {
              q: req.q,
              conversationId: req.conversation_id,
              authorActorId: req.author_actor_id,
              parentMessageId: req.parent_message_id,
              has: req.has,
              after: req.after,
              before: req.before,
              sort: req.sort,
              cursor: req.cursor,
              limit: req.limit,
            }),
            (hit) => ({ message: toMessage(hit.message), highlights: hit.highlights }),
          ),
        ),
      ),
    ListThreads: async (req, ctx) =>
      toJsonBody(
        publicThreadPage(
          toPage(
            await readStates.threads(ctx, {
              following: req.following,
              unread: req.unread,
              cursor: req.cursor,
              limit: req.limit,
            }),
            toThread,
          ),
        ),
      ),
  }) satisfies Partial<Handlers>;
