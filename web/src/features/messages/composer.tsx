import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type KeyboardEvent, useState } from 'react';
import { api, ApiError } from '../../lib/api.ts';
import type { Message, Page } from '../../lib/types.ts';
import { useWorkspace } from '../workspace/context.ts';
import { conversationKey, putMessage } from './cache.ts';

/** The query key of a conversation's newest messages, or of a thread's replies. */
export const messagesKey = (workspaceId: string | undefined, conversationId: string, parentMessageId?: string) =>
  parentMessageId
    ? ['replies', workspaceId, conversationId, parentMessageId]
    : conversationKey(workspaceId, conversationId);

/** Writes a message (or a reply to `parentMessageId`): Enter sends, Shift+Enter starts a new line. */
export function Composer({
  conversationId,
  parentMessageId,
  label = 'Message',
}: {
  conversationId: string;
  parentMessageId?: string;
  label?: string;
}) {
  const { caller } = useWorkspace();
  const queryClient = useQueryClient();
  const [text, setText] = useState('');
  const post = useMutation({
    mutationFn: (bodyText: string) =>
      api<Message>(caller, 'POST', `/conversations/${conversationId}/messages`, {
        body_text: bodyText,
        client_message_id: crypto.randomUUID(),
        ...(parentMessageId ? { parent_message_id: parentMessageId } : {}),
      }),
    onSuccess: (message) => {
      if (!parentMessageId) putMessage(queryClient, caller.workspaceId, message, true);
      else
        queryClient.setQueryData<Page<Message>>(
          messagesKey(caller.workspaceId, conversationId, parentMessageId),
          (page) =>
            page && !page.items.some((m) => m.id === message.id) ? { ...page, items: [message, ...page.items] } : page,
        );
      setText('');
    },
  });
  const send = (event?: FormEvent) => {
    event?.preventDefault();
    if (text.trim() !== '' && !post.isPending) post.mutate(text);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey) send(event);
  };
  return (
    <form className="composer" onSubmit={send} aria-label={label === 'Message' ? 'Write a message' : label}>
      <label>
        {label}
        <textarea value={text} onChange={(e) => setText(e.target.value)} onKeyDown={onKeyDown} rows={2} />
      </label>
      {post.error && <p role="alert">{post.error instanceof ApiError ? post.error.message : 'Not sent.'}</p>}
      <button type="submit" disabled={post.isPending}>
        Send
      </button>
    </form>
  );
}
