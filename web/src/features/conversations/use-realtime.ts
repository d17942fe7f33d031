import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import type { Caller } from '../../lib/api.ts';
import { connectRealtime, type Realtime, type RealtimeEvent, type RealtimeStatus } from '../../lib/realtime.ts';
import type { Message, MessageReactions } from '../../lib/types.ts';
import { changeMessage, putMessage } from '../messages/cache.ts';
import { withReactions } from '../messages/message-item.tsx';
import { applyDirectoryEvent } from '../workspace/directory.tsx';
import type { SavedMessageState } from '../saved/types.ts';
import { applyThreadEvent } from '../threads/thread-events.ts';
import { applySavedState, savedKey } from '../saved/use-saved.ts';

/** A payload too big for the provider names what it was about (`ref`): that is read again. */
function readAgain(queryClient: QueryClient, workspaceId: string, ref: { type?: string; conversation_id?: string }) {
  if (ref.conversation_id) {
    for (const kind of ['messages', 'replies', 'thread-root'])
      void queryClient.invalidateQueries({ queryKey: [kind, workspaceId, ref.conversation_id] });
  }
  if (ref.type === 'saved') void queryClient.invalidateQueries({ queryKey: savedKey(workspaceId) });
  void queryClient.invalidateQueries({ queryKey: ['conversations', workspaceId] });
}

/** What an event changes in the query cache: a message in its page in place, the sidebar fetched again. */
function applyEvent(queryClient: QueryClient, workspaceId: string, e: RealtimeEvent): void {
  if (e.data.truncated === true) return readAgain(queryClient, workspaceId, e.data.ref ?? {});
  if (applyThreadEvent(queryClient, workspaceId, e)) return;
  // A member added, changed or removed: the directory (names, mentions) is read again, and the pending invitations (an
  // acceptance adds a member).
  if (e.event.startsWith('workspace_user.')) {
    void queryClient.invalidateQueries({ queryKey: ['actors', workspaceId] });
    void queryClient.invalidateQueries({ queryKey: ['workspace-invitations', workspaceId] });
  }
  if (e.event === 'actor.updated' || e.event === 'presence.updated') {
    applyDirectoryEvent(queryClient, workspaceId, e.event, e.data);
    return;
  }
  if (e.event === 'reactions.updated') {
    const r = e.data.reactions as MessageReactions;
    changeMessage(queryClient, workspaceId, e.data.conversation_id as string, r.message_id, (m) => withReactions(m, r));
    return;
  }
  if (e.event === 'saved.updated') return applySavedState(queryClient, workspaceId, e.data.saved as SavedMessageState);
  const message = e.data.message as Message | undefined;
  if (message && e.event.startsWith('message.')) {
    if (message.parent_message_id !== null) return;
    putMessage(queryClient, workspaceId, message, e.event === 'message.created');
    // A saved message edited or deleted: the saved list shows its text, and leaves deleted ones out.
    if (e.event !== 'message.created') void queryClient.invalidateQueries({ queryKey: savedKey(workspaceId) });
  }
  // Unread counts, new and changed conversations: the sidebar is read again.
  void queryClient.invalidateQueries({ queryKey: ['conversations', workspaceId] });
}

/**
 * The realtime connection of the signed-in workspace: every event updates the query cache, and the conversations
 * shown are subscribed to. Answers the connection's status for the screen to show.
 */
export function useRealtime(caller: Caller & { workspaceId: string }, conversationIds: string[]): RealtimeStatus {
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<RealtimeStatus>('connecting');
  const [realtime, setRealtime] = useState<Realtime | null>(null);
  const { token, workspaceId } = caller;
  useEffect(() => {
    let closed = false;
    let opened: Realtime | undefined;
    connectRealtime(
      { token, workspaceId },
      {
        onEvent: (e) => applyEvent(queryClient, workspaceId, e),
        onStatus: setStatus,
        // Too long away for the catch-up log: everything shown is read again.
        onLost: () => void queryClient.invalidateQueries(),
        // A conversation subscribed to late (new in the sidebar): its counts so far are read again (its messages are
        // read when it is opened).
        onSubscribed: (channel) => {
          if (channel.startsWith('private-conversation-'))
            void queryClient.invalidateQueries({ queryKey: ['conversations', workspaceId] });
        },
      },
    )
      .then((r) => {
        if (closed) return r.close();
        opened = r;
        setRealtime(r);
      })
      .catch(() => setStatus('offline'));
    return () => {
      closed = true;
      opened?.close();
      setRealtime(null);
    };
  }, [queryClient, token, workspaceId]);
  const channels = conversationIds.map((id) => `private-conversation-${id}`);
  // The conversations listed, and only those: one the caller left or lost is unsubscribed.
  const listed = useRef<string[]>([]);
  useEffect(() => {
    if (!realtime) return;
    for (const channel of listed.current) if (!channels.includes(channel)) realtime.unsubscribe(channel);
    for (const channel of channels) realtime.subscribe(channel);
    listed.current = channels;
  }, [realtime, channels.join()]);
  return status;
}
