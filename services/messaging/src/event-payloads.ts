import { randomUUID } from 'node:crypto';
import { actorChannel, conversationChannel, workspaceChannel } from '@wms/kit/channels';
import type { OutboxEntry } from '@wms/kit/outbox';
import {
  publicChannel,
  publicChannelMember,
  publicMessage,
  publicMessageReactions,
  publicReadState,
  publicSavedMessageState,
} from '@wms/protos/public';
import type { MessageRead } from './adapters/attachments.ts';
import type { Channel, ChannelKind, ChannelMember } from './domain/channel.ts';
import type { Message, SavedState } from './domain/message.ts';
import type { ReadState } from './domain/read-state.ts';
import { toChannel, toMember, toMessage, toReactions, toReadState, toSaved } from './wire.ts';

/** A change realtime clients must see (contract §7), as services record it in the change's own transaction. */
export type MessagingEvent =
  /** `memberIds`: a private or direct conversation's members, each told on its own channel (public: none, told on the workspace's). */
  | { type: 'channel.created' | 'channel.updated'; channel: Channel; memberIds: string[] }
  | {
      type: 'channel_member.added' | 'channel_member.removed';
      workspaceId: string;
      kind: ChannelKind;
      member: ChannelMember;
    }
  | { type: 'message.created' | 'message.updated' | 'message.deleted'; message: MessageRead }
  | { type: 'thread.updated'; root: Message }
  | { type: 'reactions.updated'; message: Message }
  | { type: 'saved.updated'; workspaceId: string; actorId: string; saved: SavedState }
  | { type: 'read_state.updated'; workspaceId: string; actorId: string; state: ReadState };

const iso = (d: Date | null) => (d === null ? null : d.toISOString());

/**
 * The channel as clients see it in events: `is_member` as it is for the event's receivers, so only in an event on a
 * member's own channel; on the workspace's channel it is left out.
 */
const channelPayload = (c: Channel, isMember?: boolean) => {
  const { is_member, ...channel } = publicChannel(toChannel({ ...c, isMember: isMember ?? false }));
  return isMember === undefined ? channel : { ...channel, is_member };
};

/** A message as every member sees it (contract §4): a bookmark is its owner's alone, so `saved_at` is null. */
const messagePayload = (read: MessageRead) => publicMessage(toMessage({ ...read, savedAt: null }));

/**
 * The event as clients receive it: its provider channels and its payload, with a fresh `event_id` that every copy of
 * one change shares, so a client that receives two copies (its own channel's and a conversation's) keeps one (the
 * realtime service sends a reference instead when a payload is over the provider's limit).
 */
export function outboxEntriesOf(e: MessagingEvent): OutboxEntry[] {
  const event_id = randomUUID();
  switch (e.type) {
    case 'channel.created':
    case 'channel.updated': {
      const workspaceId = e.channel.workspaceId;
      // Contract §9: a private or direct conversation is told only to its members.
      if (e.channel.kind !== 'public') {
        return e.memberIds.map((actorId) => ({
          workspaceId,
          channel: actorChannel(actorId),
          event: e.type,
          payload: { event_id, channel: channelPayload(e.channel, true) },
        }));
      }
      return [
        {
          workspaceId,
          channel: workspaceChannel(workspaceId),
          event: e.type,
          payload: { event_id, channel: channelPayload(e.channel) },
        },
      ];
    }
    case 'channel_member.added':
    case 'channel_member.removed': {
      // `conversation_kind` tells the realtime service (and the client) whether a removal takes the conversation away.
      const payload = { event_id, member: publicChannelMember(toMember(e.member)), conversation_kind: e.kind };
      return [conversationChannel(e.member.channelId), actorChannel(e.member.actorId)].map((channel) => ({
        workspaceId: e.workspaceId,
        channel,
        event: e.type,
        payload,
      }));
    }
    default:
      return [outboxEventOf(e, event_id)];
  }
}

/** The events with one provider channel. */
function outboxEventOf(e: Exclude<MessagingEvent, { type: `channel${string}` }>, event_id: string): OutboxEntry {
  switch (e.type) {
    case 'message.created':
    case 'message.updated':
    case 'message.deleted': {
      const m = e.message.message;
      return {
        workspaceId: m.workspaceId,
        channel: conversationChannel(m.conversationId),
        event: e.type,
        payload: { event_id, message: messagePayload(e.message) },
      };
    }
    case 'thread.updated':
      return {
        workspaceId: e.root.workspaceId,
        channel: conversationChannel(e.root.conversationId),
        event: e.type,
        payload: {
          event_id,
          conversation_id: e.root.conversationId,
          root_id: e.root.id,
          reply_count: e.root.replyCount,
          reply_actor_ids: e.root.replyActorIds,
          last_reply_at: iso(e.root.lastReplyAt),
        },
      };
    case 'reactions.updated':
      return {
        workspaceId: e.message.workspaceId,
        channel: conversationChannel(e.message.conversationId),
        event: e.type,
        payload: {
          event_id,
          conversation_id: e.message.conversationId,
          reactions: publicMessageReactions(toReactions(e.message)),
        },
      };
    case 'saved.updated':
      return {
        workspaceId: e.workspaceId,
        channel: actorChannel(e.actorId),
        event: e.type,
        payload: { event_id, saved: publicSavedMessageState(toSaved(e.saved)) },
      };
    case 'read_state.updated':
      return {
        workspaceId: e.workspaceId,
        channel: actorChannel(e.actorId),
        event: e.type,
        payload: { event_id, read_state: publicReadState(toReadState(e.state)) },
      };
  }
}
