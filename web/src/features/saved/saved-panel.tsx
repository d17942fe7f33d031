import { useInfiniteQuery } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';
import type { Message, Page } from '../../lib/types.ts';
import { MessageBody } from '../messages/message-body.tsx';
import { ConversationName } from '../search/conversation-name.tsx';
import { useWorkspace } from '../workspace/context.ts';
import { savedKey, useSaveMessage } from './use-saved.ts';
import './saved.css';

/** The caller's saved messages, newest save first, each opening its conversation or removed from the list. */
export function SavedPanel() {
  const { caller, openConversation } = useWorkspace();
  const save = useSaveMessage();
  const saved = useInfiniteQuery({
    queryKey: savedKey(caller.workspaceId),
    queryFn: ({ pageParam }) =>
      api<Page<Message>>(
        caller,
        'GET',
        `/saved-messages?limit=20${pageParam ? `&cursor=${encodeURIComponent(pageParam)}` : ''}`,
      ),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor,
  });
  const messages = saved.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <div className="saved-panel">
      {saved.isError && <p role="alert">{saved.error.message}</p>}
      {saved.isSuccess && messages.length === 0 && <p className="empty">No saved messages.</p>}
      <ol className="saved-list" aria-label="Saved messages">
        {messages.map((m) => (
          <li key={m.id}>
            <article>
              <button type="button" className="open" onClick={() => openConversation(m.conversation_id)}>
                <ConversationName conversationId={m.conversation_id} />
              </button>
              <MessageBody nodes={m.children} />
              <button type="button" onClick={() => save.mutate({ message: m, save: false })}>
                Remove
              </button>
            </article>
          </li>
        ))}
      </ol>
      {saved.hasNextPage && (
        <button type="button" onClick={() => void saved.fetchNextPage()} disabled={saved.isFetchingNextPage}>
          Load more
        </button>
      )}
    </div>
  );
}
