import { createContext, useContext } from 'react';
import type { Message } from '../../lib/types.ts';
import { useWorkspace } from '../workspace/context.ts';

/** True inside the thread panel, where a root needs no way into its own thread. */
export const InThread = createContext(false);

export const repliesLabel = (count: number) => (count === 1 ? '1 reply' : `${count} replies`);

/** A top-level message's way into its thread: its reply count (when it has replies) and Reply, both opening the panel. */
export function ThreadLink({ message }: { message: Message }) {
  const inThread = useContext(InThread);
  const { openPanel } = useWorkspace();
  const { parent_message_id: parent, reply_count: count } = message;
  if (parent !== null || inThread) return null;
  const open = () => openPanel({ kind: 'thread', conversationId: message.conversation_id, messageId: message.id });
  return (
    <>
      {count > 0 && (
        <button type="button" className="thread-count" onClick={open}>
          {repliesLabel(count)}
        </button>
      )}
      <button type="button" onClick={open}>
        Reply
      </button>
    </>
  );
}
