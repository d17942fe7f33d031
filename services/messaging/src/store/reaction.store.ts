import { type Knex, queryable, type Tx } from '@wms/kit/db';
import type { Message } from '../domain/message.ts';
import { type MessageRow, toMessage } from './message.store.ts';

/**
 * Reactions per message, actor and emoji. Callers hold the message's row lock (MessageStore.lock) in `tx`, so a
 * change and the summary it rewrites are serialised per message.
 */
export class ReactionStore {
  constructor(private readonly db: Knex) {}

  /** Adds the reaction; false when the actor had already reacted with this emoji. */
  async add(messageId: string, emoji: string, actorId: string, tx: Tx): Promise<boolean> {
    const { rowCount } = await queryable(this.db, tx).raw('INSERT INTO reactions (message_id, emoji, actor_id) VALUES (?, ?, ?) ON CONFLICT DO NOTHING', [
      messageId,
      emoji,
      actorId,
    ]);
    return rowCount === 1;
  }

  /** Removes the reaction; false when there was none. */
  async remove(messageId: string, emoji: string, actorId: string, tx: Tx): Promise<boolean> {
    const { rowCount } = await queryable(this.db, tx).raw('DELETE FROM reactions WHERE message_id = ? AND emoji = ? AND actor_id = ?', [messageId, emoji, actorId]);
    return rowCount === 1;
  }

  /** Rewrites the message's reaction summary (emoji by first reaction, actors in reaction order) and bumps its version. */
  async summarise(messageId: string, tx: Tx): Promise<Message> {
    const { rows } = await queryable(this.db, tx).raw<{ rows: MessageRow[] }>(
      `UPDATE messages m SET reactions_version = m.reactions_version + 1, updated_at = now(), reactions = coalesce((
         SELECT jsonb_agg(jsonb_build_object('emoji', g.emoji, 'actor_ids', g.actor_ids) ORDER BY g.first_seq)
         FROM (SELECT emoji, min(seq) AS first_seq, array_agg(actor_id ORDER BY seq) AS actor_ids
               FROM reactions WHERE message_id = m.id GROUP BY emoji) g
       ), '[]'::jsonb)
       WHERE m.id = ? RETURNING *`,
      [messageId],
    );
    return toMessage(rows[0]!);
  }
}
