import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type KeyboardEvent, useEffect, useState } from 'react';
import { api, ApiError, type Caller } from '../../lib/api.ts';
import type { Message, Page } from '../../lib/types.ts';
import { MessageItem } from './message-item.tsx';

/** A conversation's newest messages, oldest at the top, and the composer. */
export function MessagePane({ caller, conversationId }: { caller: Caller; conversationId: string }) {
  const key = ['messages', caller.workspaceId, conversationId];
  const messages = useQuery({
    queryKey: key,
    queryFn: () => api<Page<Message>>(caller, 'GET', `/conversations/${conversationId}/messages?limit=50`),
  });
  const me = useQuery({
    queryKey: ['me', caller.workspaceId],
    queryFn: () => api<{ id: string }>(caller, 'GET', '/workspace/actors/me'),
    staleTime: Infinity,
  });
  useMarkRead(caller, conversationId, messages.data?.items[0]?.id);
  return (
    <section className="messages" aria-label="Messages">
      <ol>
        {[...(messages.data?.items ?? [])].reverse().map((m) => (
          <li key={m.id}>
            <MessageItem caller={caller} message={m} me={me.data?.id} />
          </li>
        ))}
      </ol>
      <Composer caller={caller} conversationId={conversationId} queryKey={key} />
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

function Composer({
  caller,
  conversationId,
  queryKey,
}: {
  caller: Caller;
  conversationId: string;
  queryKey: unknown[];
}) {
  const queryClient = useQueryClient();
  const [text, setText] = useState('');
  const post = useMutation({
    mutationFn: (bodyText: string) =>
      api<Message>(caller, 'POST', `/conversations/${conversationId}/messages`, {
        body_text: bodyText,
        client_message_id: crypto.randomUUID(),
      }),
    onSuccess: (message) => {
      queryClient.setQueryData<Page<Message>>(queryKey, (page) =>
        page && !page.items.some((m) => m.id === message.id) ? { ...page, items: [message, ...page.items] } : page,
      );
      setText('');
    },
  });
  const send = (event?: FormEvent) => {
    event?.preventDefault();
    if (text.trim() !== '' && !post.isPending) post.mutate(text);
  };
  // Enter sends, Shift+Enter starts a new line.
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey) send(event);
  };
  return (
    <form className="composer" onSubmit={send}>
      <label>
        Message
        <textarea value={text} onChange={(e) => setText(e.target.value)} onKeyDown={onKeyDown} rows={2} />
      </label>
      {post.error && <p role="alert">{post.error instanceof ApiError ? post.error.message : 'Not sent.'}</p>}
      <button type="submit" disabled={post.isPending}>
        Send
      </button>
    </form>
  );
}
