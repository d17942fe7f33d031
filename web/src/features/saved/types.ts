import type { Message } from '../../lib/types.ts';

/** A message as the API answers it to the caller: `saved_at` is the caller's own bookmark (null in events). */
export type SavableMessage = Message & { saved_at: string | null };

/** What `PUT`/`DELETE …/saved` answer and `saved.updated` carries on the actor's channel. */
export interface SavedMessageState {
  message_id: string;
  saved: boolean;
  saved_at: string | null;
}
