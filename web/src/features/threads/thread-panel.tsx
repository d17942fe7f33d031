import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api, type Caller } from '../../lib/api.ts';
import type { Message, Page } from '../../lib/types.ts';
import { conversationKey, type MessagePages, repliesKey } from '../messages/cache.ts';
import { Composer } from '../messages/composer.tsx';
import { MessageItem } from '../messages/message-item.tsx';
import { useWorkspace } from '../workspace/context.ts';
import { threadRootKey } from './thread-events.ts';
import { InThread, repliesLabel } from './thread-link.tsx';
import './thread-panel.css';

/** A thread in the side panel: its root, its replies oldest at the top, and a composer for replies. */
export function ThreadPanel({ conversationId, messageId }: { conversationId: string; messageId: string }) {
  const { caller, me } = useWorkspace();
  const root = useThreadRoot(conversationId, messageId);
  const replies = useQuery({
    queryKey: repliesKey(caller.workspaceId, conversationId, messageId),
    queryFn: () =>
      api<Page<Message>>(
        caller,
        'GET',
        `/conversations/${conversationId}/messages?parent_message_id=${messageId}&limit=100`,
      ),
  });
  const items = replies.data?.items ?? [];
  useMarkThreadRead(caller, messageId, items[0]?.id ?? root.data?.id);
  const count = root.data ? root.data.reply_count : items.length;
  return (
    <InThread.Provider value={true}>
      <div className="thread-panel">
        {root.data && <MessageItem caller={caller} message={root.data} me={me} />}
        {root.isError && <p role="alert">This thread cannot be read.</p>}
        <p className="thread-panel-count">{count > 0 ? repliesLabel(count) : 'No replies yet'}</p>
        <ol aria-label="Replies">
          {[...items].reverse().map((m) => (
            <li key={m.id}>
              <MessageItem caller={caller} message={m} me={me} />
            </li>
          ))}
        </ol>
        <Composer conversationId={conversationId} parentMessageId={messageId} label="Reply" />
      </div>
    </InThread.Provider>
  );
}

/** The root as its conversation's cached page has it (kept current there), else read on its own. */
function useThreadRoot(conversationId: string, messageId: string) {
  const { caller } = useWorkspace();
  const cached = useQuery<MessagePages, Error, Message | undefined>({
    queryKey: conversationKey(caller.workspaceId, conversationId),
    enabled: false,
    select: (data) => data.pages.flatMap((p) => p.items).find((m) => m.id === messageId),
  });
  const alone = useQuery({
    queryKey: threadRootKey(caller.workspaceId, conversationId, messageId),
    queryFn: () => api<Message>(caller, 'GET', `/conversations/${conversationId}/messages/${messageId}`),
    enabled: cached.data === undefined,
  });
  return cached.data ? { data: cached.data, isError: false } : { data: alone.data, isError: alone.isError };
}

/** Moves the caller's thread read mark to the newest reply shown (the root while there is none). */
function useMarkThreadRead(caller: Caller, rootId: string, newest: string | undefined): void {
  useEffect(() => {
    if (!newest) return;
    void api(caller, 'PUT', `/threads/${rootId}/read-state`, { last_read_message_id: newest }).catch(() => undefined);
  }, [caller.token, caller.workspaceId, rootId, newest]);
}
