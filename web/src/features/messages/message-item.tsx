import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type KeyboardEvent, useState } from 'react';
import { api, type Caller } from '../../lib/api.ts';
import type { Message, MessageReactions } from '../../lib/types.ts';
import { changeMessage } from './cache.ts';
import { nameOf, PresenceDot, useActors, useOnline } from '../workspace/directory.tsx';
import { SaveToggle } from '../saved/save-toggle.tsx';
import { ThreadLink } from '../threads/thread-link.tsx';
import { AttachmentList } from '../uploads/attachment-list.tsx';
import { MessageBody } from './message-body.tsx';

/** The emoji offered for a first reaction. */
const QUICK = ['👍', '🎉', '👀'];

/** Reactions move forward only: an answer or event older than what is shown is dropped. */
export const withReactions = (m: Message, r: MessageReactions): Message =>
  r.reactions_version >= m.reactions_version
    ? { ...m, reactions: r.reactions, reactions_version: r.reactions_version }
    : m;

/** One message: its body, its reactions (toggled by the caller), and for its author Edit and Delete. */
export function MessageItem({ caller, message, me }: { caller: Caller; message: Message; me: string | undefined }) {
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState(false);
  const path = `/conversations/${message.conversation_id}/messages/${message.id}`;
  const replace = (change: (m: Message) => Message) =>
    changeMessage(queryClient, caller.workspaceId, message.conversation_id, message.id, change);
  const react = useMutation({
    mutationFn: ({ emoji, on }: { emoji: string; on: boolean }) =>
      api<MessageReactions>(caller, on ? 'PUT' : 'DELETE', `${path}/reactions/${encodeURIComponent(emoji)}`),
    onSuccess: (r) => replace((m) => withReactions(m, r)),
  });
  const remove = useMutation({
    mutationFn: () => api(caller, 'DELETE', path),
    onSuccess: () => replace((m) => ({ ...m, deleted_at: new Date().toISOString(), children: [], reactions: [] })),
  });
  if (message.deleted_at) return <em>This message was deleted.</em>;
  if (editing) return <EditForm caller={caller} message={message} path={path} onDone={() => setEditing(false)} />;
  const mine = (emoji: string) => message.reactions.find((r) => r.emoji === emoji)?.actor_ids.includes(me ?? '');
  const shown = [
    ...message.reactions.map((r) => r.emoji),
    ...QUICK.filter((e) => !message.reactions.some((r) => r.emoji === e)),
  ];
  return (
    <article aria-label="Message">
      <Byline message={message} />
      <MessageBody nodes={message.children} />
      {message.edited_at && <small> (edited)</small>}
      <AttachmentList assets={message.assets} />
      <div className="actions">
        {shown.map((emoji) => {
          const count = message.reactions.find((r) => r.emoji === emoji)?.actor_ids.length ?? 0;
          return (
            <button
              key={emoji}
              type="button"
              aria-pressed={Boolean(mine(emoji))}
              aria-label={`${emoji} ${count}`}
              onClick={() => react.mutate({ emoji, on: !mine(emoji) })}
            >
              {emoji} {count > 0 ? count : ''}
            </button>
          );
        })}
        <SaveToggle message={message} />
        <ThreadLink message={message} />
        {message.author_actor_id === me && (
          <>
            <button type="button" onClick={() => setEditing(true)}>
              Edit
            </button>
            <button type="button" onClick={() => remove.mutate()}>
              Delete
            </button>
          </>
        )}
      </div>
    </article>
  );
}

/** One formatter for every byline (toLocaleTimeString would make one for each message). */
const TIME = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });

/** Who wrote the message (online or not) and when. */
function Byline({ message }: { message: Message }) {
  const actors = useActors();
  const online = useOnline();
  const at = new Date(message.created_at);
  return (
    <header className="byline">
      <PresenceDot online={online.has(message.author_actor_id)} />
      <span className="author">{nameOf(actors, message.author_actor_id)}</span>{' '}
      <time dateTime={message.created_at}>{TIME.format(at)}</time>
    </header>
  );
}

function EditForm({
  caller,
  message,
  path,
  onDone,
}: {
  caller: Caller;
  message: Message;
  path: string;
  onDone: () => void;
}) {
  const queryClient = useQueryClient();
  const [text, setText] = useState(message.body_text);
  const save = useMutation({
    mutationFn: (bodyText: string) => api<Message>(caller, 'PATCH', path, { body_text: bodyText }),
    onSuccess: (edited) => {
      changeMessage(queryClient, caller.workspaceId, message.conversation_id, message.id, () => edited);
      onDone();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (text.trim() !== '') save.mutate(text);
  };
  // Escape cancels the edit only (not the side panel around it too).
  const cancel = (event: KeyboardEvent) => {
    event.preventDefault();
    onDone();
  };
  return (
    <form onSubmit={submit} aria-label="Edit the message" onKeyDown={(e) => e.key === 'Escape' && cancel(e)}>
      <label>
        Edited text
        <textarea value={text} onChange={(e) => setText(e.target.value)} rows={2} />
      </label>
      <button type="submit" disabled={save.isPending}>
        Save
      </button>
      <button type="button" onClick={onDone}>
        Cancel
      </button>
    </form>
  );
}
