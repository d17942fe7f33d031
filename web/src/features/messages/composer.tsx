import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type KeyboardEvent, useRef, useState } from 'react';
import { api, ApiError } from '../../lib/api.ts';
import type { Message, Page } from '../../lib/types.ts';
import { AttachmentPicker } from '../uploads/attachment-picker.tsx';
import { useAttachments } from '../uploads/use-attachments.ts';
import { useWorkspace } from '../workspace/context.ts';
import { conversationKey, putMessage } from './cache.ts';
import { useMentionPicker } from './mention-picker.tsx';

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
  const attachments = useAttachments(conversationId);
  const post = useMutation({
    mutationFn: async (bodyText: string) => {
      // Files are reserved, attached, then uploaded: the message shows them pending until they arrive.
      const reserved = await attachments.reserve();
      const message = await api<Message>(caller, 'POST', `/conversations/${conversationId}/messages`, {
        body_text: bodyText,
        client_message_id: crypto.randomUUID(),
        ...(parentMessageId ? { parent_message_id: parentMessageId } : {}),
        ...(reserved.length > 0 ? { asset_ids: reserved.map((r) => r.asset.id) } : {}),
      });
      return { message, reserved };
    },
    onSuccess: ({ message, reserved }) => {
      if (!parentMessageId) putMessage(queryClient, caller.workspaceId, message, true);
      else
        queryClient.setQueryData<Page<Message>>(
          messagesKey(caller.workspaceId, conversationId, parentMessageId),
          (page) =>
            page && !page.items.some((m) => m.id === message.id) ? { ...page, items: [message, ...page.items] } : page,
        );
      setText('');
      if (reserved.length > 0) attachments.upload(message, reserved);
    },
  });
  const send = (event?: FormEvent) => {
    event?.preventDefault();
    if ((text.trim() !== '' || attachments.files.length > 0) && !post.isPending) post.mutate(text);
  };
  const textarea = useRef<HTMLTextAreaElement>(null);
  const mentions = useMentionPicker(text, setText, textarea);
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (mentions.onKeyDown(event)) return;
    if (event.key === 'Enter' && !event.shiftKey) send(event);
  };
  return (
    <form className="composer" onSubmit={send} aria-label={label === 'Message' ? 'Write a message' : label}>
      <label>
        {label}
        <textarea
          ref={textarea}
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={onKeyDown}
          rows={2}
          {...mentions.inputProps}
        />
      </label>
      {mentions.list}
      <AttachmentPicker attachments={attachments} />
      {post.error && <p role="alert">{post.error instanceof ApiError ? post.error.message : 'Not sent.'}</p>}
      <button type="submit" disabled={post.isPending}>
        Send
      </button>
    </form>
  );
}
