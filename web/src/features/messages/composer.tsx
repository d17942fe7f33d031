import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type KeyboardEvent, useRef, useState } from 'react';
import { api, ApiError } from '../../lib/api.ts';
import type { Message } from '../../lib/types.ts';
import { AttachmentPicker } from '../uploads/attachment-picker.tsx';
import { type Reserved, useAttachments } from '../uploads/use-attachments.ts';
import { useWorkspace } from '../workspace/context.ts';
import { putMessage, putReply } from './cache.ts';
import { useMentionPicker } from './mention-picker.tsx';

interface Draft {
  id: string;
  text: string;
  files: File[];
  reserved?: Reserved[];
}

const sameFiles = (a: File[], b: File[]) => a.length === b.length && a.every((f, i) => f === b[i]);

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
  // One draft, one client_message_id and one set of reserved files: a send retried after a failure (the same text and
  // files) reuses them, so the server keeps one message; a changed draft is a new message.
  const draft = useRef<Draft | null>(null);
  const post = useMutation({
    mutationFn: async (bodyText: string) => {
      const files = attachments.files;
      const same = draft.current?.text === bodyText && sameFiles(draft.current.files, files);
      const d =
        same && draft.current ? draft.current : (draft.current = { id: crypto.randomUUID(), text: bodyText, files });
      // Files are reserved, attached, then uploaded: the message shows them pending until they arrive.
      d.reserved ??= await attachments.reserve(files);
      const message = await api<Message>(caller, 'POST', `/conversations/${conversationId}/messages`, {
        body_text: bodyText,
        client_message_id: d.id,
        ...(parentMessageId ? { parent_message_id: parentMessageId } : {}),
        ...(d.reserved.length > 0 ? { asset_ids: d.reserved.map((r) => r.asset.id) } : {}),
      });
      return { message, reserved: d.reserved, sent: bodyText };
    },
    onSuccess: ({ message, reserved, sent }) => {
      draft.current = null;
      if (parentMessageId) putReply(queryClient, caller.workspaceId, parentMessageId, message, true);
      else putMessage(queryClient, caller.workspaceId, message, true);
      // What was typed while it was being sent stays.
      setText((t) => (t === sent ? '' : t));
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
          onSelect={mentions.onSelect}
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
