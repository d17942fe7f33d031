import type { QueryClient } from '@tanstack/react-query';
import type { RealtimeEvent } from '../../lib/realtime.ts';
import type { Message } from '../../lib/types.ts';
import { changeMessage, putReply } from '../messages/cache.ts';
import type { ThreadUpdate } from './types.ts';

/** The query key of a thread root read on its own (when it is not among its conversation's newest messages). */
export const threadRootKey = (workspaceId: string | undefined, conversationId: string, rootId: string) => [
  'thread-root',
  workspaceId,
  conversationId,
  rootId,
];

/**
 * What an event changes in threads: a reply's `message.*` its thread's replies, `thread.updated` its root's reply
 * count, wherever the root is cached. Answers whether the event is done with (else the caller goes on with it).
 */
export function applyThreadEvent(queryClient: QueryClient, workspaceId: string, e: RealtimeEvent): boolean {
  if (e.event === 'thread.updated') {
    const t = e.data as unknown as ThreadUpdate;
    const change = (m: Message): Message => ({
      ...m,
      reply_count: t.reply_count,
      reply_actor_ids: t.reply_actor_ids,
      last_reply_at: t.last_reply_at,
    });
    // Its conversation's pages, and the root read on its own.
    changeMessage(queryClient, workspaceId, t.conversation_id, t.root_id, change);
    return true;
  }
  const message = e.data.message as Message | undefined;
  if (!message || !e.event.startsWith('message.')) return false;
  const parent = message.parent_message_id;
  if (parent === null) {
    queryClient.setQueryData<Message>(threadRootKey(workspaceId, message.conversation_id, message.id), (m) =>
      m ? { ...message, saved_at: m.saved_at } : m,
    );
    return false;
  }
  putReply(queryClient, workspaceId, parent, message, e.event === 'message.created');
  return true;
}
