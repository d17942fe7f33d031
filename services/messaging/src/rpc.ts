import type { ServiceHandlers } from '@wms/kit/grpc-server';
import type { Channel as ChannelProto } from '@wms/protos/gen/wms/messaging/v1/Channel';
import type { ChannelMember as ChannelMemberProto } from '@wms/protos/gen/wms/messaging/v1/ChannelMember';
import type { Message as MessageProto } from '@wms/protos/gen/wms/messaging/v1/Message';
import type { MessageReactions } from '@wms/protos/gen/wms/messaging/v1/MessageReactions';
import type { Reaction as ReactionProto } from '@wms/protos/gen/wms/messaging/v1/Reaction';
import type { ReadState as ReadStateProto } from '@wms/protos/gen/wms/messaging/v1/ReadState';
import type { SavedMessageState } from '@wms/protos/gen/wms/messaging/v1/SavedMessageState';
import type { Thread as ThreadProto } from '@wms/protos/gen/wms/messaging/v1/Thread';
import type { MessageRead } from './adapters/attachments.ts';
import type { ChannelService } from './channel.service.ts';
import type { Channel, ChannelMember } from './domain/channel.ts';
import { childrenOf, type Reaction, type Reactions, type SavedState } from './domain/message.ts';
import type { Page } from './domain/paging.ts';
import type { ReadState } from './domain/read-state.ts';
import type { MessageActionsService } from './message-actions.service.ts';
import type { MessageService } from './message.service.ts';
import type { ReadStateService, ThreadRead } from './read-state.service.ts';
import type { SearchService } from './search.service.ts';

/** Protobuf leaves a field without value unset. */
const unset = <T>(value: T | null): T | undefined => value ?? undefined;
const iso = (d: Date | null): string | undefined => d?.toISOString();

const toChannel = (c: Channel): ChannelProto => ({
  id: c.id,
  workspace_id: c.workspaceId,
  kind: c.kind,
  name: unset(c.name),
  topic: unset(c.topic),
  created_by_actor_id: c.createdByActorId,
  member_count: c.memberCount,
  is_member: c.isMember,
  participant_actor_ids: c.participantActorIds,
  last_message_at: iso(c.lastMessageAt),
  archived_at: iso(c.archivedAt),
  created_at: c.createdAt.toISOString(),
  updated_at: c.updatedAt.toISOString(),
});

const toMember = (m: ChannelMember): ChannelMemberProto => ({
  channel_id: m.channelId,
  actor_id: m.actorId,
  added_by_actor_id: unset(m.addedByActorId),
  joined_at: m.joinedAt.toISOString(),
});

const toReaction = (r: Reaction): ReactionProto => ({ emoji: r.emoji, actor_ids: r.actorIds });

const toReactions = (m: Reactions): MessageReactions => ({
  message_id: m.id,
  reactions: m.reactions.map(toReaction),
  reactions_version: m.reactionsVersion,
});

const toMessage = ({ message: m, savedAt, assets }: MessageRead): MessageProto => ({
  id: m.id,
  workspace_id: m.workspaceId,
  conversation_id: m.conversationId,
  author_actor_id: m.authorActorId,
  body_text: m.bodyText,
  children: childrenOf(m),
  mentioned_actor_ids: m.mentionedActorIds,
  parent_message_id: unset(m.parentMessageId),
  loading_expires_at: iso(m.loadingExpiresAt),
  saved_at: iso(savedAt),
  reply_count: m.replyCount,
  reply_actor_ids: m.replyActorIds,
  last_reply_at: iso(m.lastReplyAt),
  reactions: m.reactions.map(toReaction),
  reactions_version: m.reactionsVersion,
  assets,
  edited_at: iso(m.editedAt),
  deleted_at: iso(m.deletedAt),
  created_at: m.createdAt.toISOString(),
  updated_at: m.updatedAt.toISOString(),
});

const toPage = <T, P>(page: Page<T>, map: (item: T) => P) => ({
  items: page.items.map(map),
  next_cursor: unset(page.nextCursor),
});

const toSaved = (s: SavedState): SavedMessageState => ({
  message_id: s.messageId,
  saved: s.savedAt !== null,
  saved_at: iso(s.savedAt),
});

const toReadState = (r: ReadState): ReadStateProto => ({
  conversation_id: r.conversationId,
  thread_root_id: unset(r.threadRootId),
  last_read_message_id: unset(r.lastReadMessageId),
  last_read_at: iso(r.lastReadAt),
  unread_count: r.unreadCount,
  mention_count: r.mentionCount,
  following: unset(r.following),
  updated_at: iso(r.updatedAt),
});

const toThread = (t: ThreadRead): ThreadProto => ({
  id: t.root.message.id,
  conversation_id: t.root.message.conversationId,
  root_message: toMessage(t.root),
  reply_count: t.root.message.replyCount,
  last_reply_at: iso(t.root.message.lastReplyAt),
  following: t.following,
  last_read_message_id: unset(t.lastReadMessageId),
  unread_count: t.unreadCount,
  mention_count: t.mentionCount,
});

export interface MessagingServices {
  channels: ChannelService;
  messages: MessageService;
  actions: MessageActionsService;
  readStates: ReadStateService;
  search: SearchService;
}

export function messagingHandlers({
  channels,
  messages,
  actions,
  readStates,
  search,
}: MessagingServices): ServiceHandlers<'messaging'> {
  return {
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
        await messages.list(ctx, {
          conversationId: req.conversation_id,
          parentMessageId: req.parent_message_id,
          cursor: req.cursor,
          limit: req.limit,
        }),
        toMessage,
      ),
    GetMessage: async (req, ctx) => toMessage(await messages.get(ctx, req.conversation_id, req.message_id)),
    UpdateMessage: async (req, ctx) =>
      toMessage(await messages.edit(ctx, req.conversation_id, req.message_id, req.body_text)),
    DeleteMessage: async (req, ctx) => {
      await messages.delete(ctx, req.conversation_id, req.message_id);
      return {};
    },

    SaveMessage: async (req, ctx) => toSaved(await actions.save(ctx, req.conversation_id, req.message_id)),
    UnsaveMessage: async (req, ctx) => toSaved(await actions.unsave(ctx, req.conversation_id, req.message_id)),
    ListSavedMessages: async (req, ctx) =>
      toPage(await actions.listSaved(ctx, { cursor: req.cursor, limit: req.limit }), toMessage),
    AddReaction: async (req, ctx) =>
      toReactions(await actions.react(ctx, req.conversation_id, req.message_id, req.emoji)),
    RemoveReaction: async (req, ctx) =>
      toReactions(await actions.unreact(ctx, req.conversation_id, req.message_id, req.emoji)),

    GetConversationReadState: async (req, ctx) => toReadState(await readStates.conversation(ctx, req.conversation_id)),
    UpdateConversationReadState: async (req, ctx) =>
      toReadState(await readStates.markConversation(ctx, req.conversation_id, req.last_read_message_id)),
    GetThreadReadState: async (req, ctx) => toReadState(await readStates.thread(ctx, req.root_id)),
    UpdateThreadReadState: async (req, ctx) =>
      toReadState(await readStates.markThread(ctx, req.root_id, req.last_read_message_id)),
    UpdateThreadSubscription: async (req, ctx) =>
      toReadState(await readStates.subscribe(ctx, req.root_id, req.following)),
    SearchMessages: async (req, ctx) =>
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
    ListThreads: async (req, ctx) =>
      toPage(
        await readStates.threads(ctx, {
          following: req.following,
          unread: req.unread,
          cursor: req.cursor,
          limit: req.limit,
        }),
        toThread,
      ),
  };
}
