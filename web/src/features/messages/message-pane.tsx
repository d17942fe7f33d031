import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api, type Caller } from '../../lib/api.ts';
import type { Message, Page } from '../../lib/types.ts';
import { useWorkspace } from '../workspace/context.ts';
import { Composer, messagesKey } from './composer.tsx';
import { MessageItem } from './message-item.tsx';

/** A conversation's newest messages, oldest at the top, and the composer. */
export function MessagePane({ conversationId }: { conversationId: string }) {
  const { caller, me } = useWorkspace();
  const messages = useQuery({
    queryKey: messagesKey(caller.workspaceId, conversationId),
    queryFn: () => api<Page<Message>>(caller, 'GET', `/conversations/${conversationId}/messages?limit=50`),
  });
  useMarkRead(caller, conversationId, messages.data?.items[0]?.id);
  return (
    <section className="messages" aria-label="Messages">
      <ol>
        {[...(messages.data?.items ?? [])].reverse().map((m) => (
          <li key={m.id}>
            <MessageItem caller={caller} message={m} me={me} />
          </li>
        ))}
      </ol>
      <Composer conversationId={conversationId} />
    </section>
  );
}

/** Moves the caller's read mark to the newest message shown, once per newest message. */
function useMarkRead(caller: Caller, conversationId: string, newest: string | undefined): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!newest) return;
    void api(caller, 'PUT', `/conversations/${conversationId}/read-state`, { last_read_message_id: newest })
      .then(() => queryClient.invalidateQueries({ queryKey: ['conversations', caller.workspaceId] }))
      .catch(() => undefined);
  }, [caller.token, caller.workspaceId, conversationId, newest, queryClient]);
}
