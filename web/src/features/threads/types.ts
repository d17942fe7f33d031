import type { Message } from '../../lib/types.ts';

/** What the Message resource says of threads (the API's Message has them; lib/types.ts leaves them out). */
export interface ThreadFields {
  /** Set on replies: the thread root. */
  parent_message_id: string | null;
  reply_count: number;
  reply_actor_ids: string[];
  last_reply_at: string | null;
}

export type ThreadMessage = Message & ThreadFields;

export const threadOf = (message: Message): ThreadFields => {
  const m = message as Partial<ThreadMessage>;
  return {
    parent_message_id: m.parent_message_id ?? null,
    reply_count: m.reply_count ?? 0,
    reply_actor_ids: m.reply_actor_ids ?? [],
    last_reply_at: m.last_reply_at ?? null,
  };
};

/** `thread.updated`'s payload. */
export interface ThreadUpdate {
  conversation_id: string;
  root_id: string;
  reply_count: number;
  reply_actor_ids: string[];
  last_reply_at: string | null;
}
