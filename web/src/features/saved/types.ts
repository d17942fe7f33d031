/** What `PUT`/`DELETE …/saved` answer and `saved.updated` carries on the actor's channel. */
export interface SavedMessageState {
  message_id: string;
  saved: boolean;
  saved_at: string | null;
}
