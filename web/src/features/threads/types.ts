/** `thread.updated`'s payload. */
export interface ThreadUpdate {
  conversation_id: string;
  root_id: string;
  reply_count: number;
  reply_actor_ids: string[];
  last_reply_at: string | null;
}
