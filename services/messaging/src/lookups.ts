import type { Caller } from '@wms/kit/caller';
import { notFound } from '@wms/kit/errors';
import { isUuid } from '@wms/kit/ids';
import type { Channel } from './domain/channel.ts';
import type { MessageWithSave } from './domain/message.ts';
import type { ChannelStore } from './store/channel.store.ts';
import type { MessageStore } from './store/message.store.ts';

// The lookups every messaging service starts from: what the caller may not see is simply not found.

/** The 404 of a conversation the workspace does not have (another workspace's id, or a malformed one). */
export const noSuchConversation = () => notFound('No such conversation.');

/** A conversation of the workspace that the caller may read (contract §9), or 404. */
export async function requireChannel(channels: ChannelStore, me: Caller, id: string): Promise<Channel> {
  const channel = isUuid(id) ? await channels.find(me.workspaceId, id, me.actorId) : undefined;
  if (!channel) throw noSuchConversation();
  return channel;
}

/**
 * A message of the caller's workspace with the caller's bookmark, in a conversation the caller may read; a malformed or
 * another workspace's id is not found.
 */
export const findMessage = (
  messages: MessageStore,
  me: Caller,
  messageId: string,
): Promise<MessageWithSave | undefined> =>
  isUuid(messageId) ? messages.find(me.workspaceId, messageId, me.actorId) : Promise.resolve(undefined);

/** A message of the conversation, or 404 (a message of another conversation or workspace is not found). */
export async function requireMessage(
  messages: MessageStore,
  me: Caller,
  conversationId: string,
  messageId: string,
): Promise<MessageWithSave> {
  const found = await findMessage(messages, me, messageId);
  if (!found || found.message.conversationId !== conversationId)
    throw notFound('No such message in this conversation.');
  return found;
}
