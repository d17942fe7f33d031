import { type Knex, prepared, queryable, type Tx } from '@wms/kit/db';
import type { Message } from '../domain/message.ts';
import { READABLE_MESSAGE } from './access.ts';
import { MESSAGE_COLUMNS, type MessageRow, toMessage } from './message.store.ts';

/**
 * The message's reaction summary (emoji by first reaction, actors in reaction order) from its reactions as the
 * statement's snapshot has them, with the change `c` (the CTE that made it) applied: a statement does not see its own
 * CTE's writes.
 */
const summaryWith = (change: 'added' | 'removed') => `coalesce((
  SELECT jsonb_agg(jsonb_build_object('emoji', g.emoji, 'actor_ids', g.actor_ids) ORDER BY g.first_seq)
  FROM (SELECT emoji, min(seq) AS first_seq, array_agg(actor_id ORDER BY seq) AS actor_ids
        FROM (${
          change === 'added'
            ? `SELECT emoji, actor_id, seq FROM reactions WHERE workspace_id = m.workspace_id AND message_id = m.id
               UNION ALL SELECT emoji, actor_id, seq FROM c`
            : `SELECT r.emoji, r.actor_id, r.seq FROM reactions r
               WHERE r.workspace_id = m.workspace_id AND r.message_id = m.id AND (r.emoji, r.actor_id) <> (c.emoji, c.actor_id)`
        }) r
        GROUP BY emoji) g
), '[]'::jsonb)`;

/** What one actor's reaction to one message binds: `:workspaceId`, `:messageId`, `:emoji`, `:actorId`. */
export interface ReactionBindings {
  workspaceId: string;
  messageId: string;
  emoji: string;
  actorId: string;
}

/**
 * Reactions per message, actor and emoji. Callers hold the message's row lock (MessageStore.lock) in `tx`, so a
 * change and the summary it rewrites are serialised per message. A change and the summary's rewrite (reactions_version
 * + 1) are one statement; nothing is rewritten when nothing changed. Statements bind by name (`:name`), as the shared
 * fragment `READABLE_MESSAGE` does.
 */
export class ReactionStore {
  constructor(private readonly db: Knex) {}

  /** Adds the reaction; the message with its new summary, or nothing when the actor had already reacted with this emoji. */
  async add(reaction: ReactionBindings, tx: Tx): Promise<Message | undefined> {
    return this.change(
      `WITH c AS (
         INSERT INTO reactions (workspace_id, message_id, emoji, actor_id) VALUES (:workspaceId, :messageId, :emoji, :actorId)
         ON CONFLICT DO NOTHING
         RETURNING message_id, emoji, actor_id, seq
       )`,
      'added',
      reaction,
      tx,
    );
  }

  /**
   * Adds the reaction without a lock taken before, in one statement: locks a live message of the workspace's
   * conversation that holds this emoji or fewer than `maxEmoji`, inserts the reaction, and appends it to the locked row's
   * summary (its newest version: a reaction committed while this one waited for the lock is in it, though not in this
   * statement's snapshot of `reactions`). Nothing when the message is missing, deleted or full, or the actor had
   * already reacted with this emoji: the caller then tells which under the lock.
   */
  async addToLive(
    q: {
      workspaceId: string;
      conversationId: string;
      messageId: string;
      emoji: string;
      actorId: string;
      maxEmoji: number;
    },
    tx: Tx,
  ): Promise<Message | undefined> {
    const present = `m.reactions @> jsonb_build_array(jsonb_build_object('emoji', :emoji::text))`;
    const { rows } = await prepared(
      queryable(this.db, tx).raw<{ rows: MessageRow[] }>(
        `WITH l AS (
         SELECT m.id FROM messages m
         WHERE m.id = :messageId AND m.workspace_id = :workspaceId AND m.conversation_id = :conversationId AND m.deleted_at IS NULL
           AND ${READABLE_MESSAGE('m')} AND (jsonb_array_length(m.reactions) < :maxEmoji OR ${present})
         FOR UPDATE OF m
       ),
       c AS (
         INSERT INTO reactions (workspace_id, message_id, emoji, actor_id) SELECT :workspaceId, l.id, :emoji, :actorId FROM l
         ON CONFLICT DO NOTHING RETURNING message_id
       )
       UPDATE messages m SET reactions_version = m.reactions_version + 1, updated_at = now(), reactions = CASE
         WHEN ${present} THEN (
           SELECT jsonb_agg(
             CASE WHEN r.x->>'emoji' = :emoji THEN jsonb_set(r.x, '{actor_ids}', (r.x->'actor_ids') || to_jsonb(:actorId::text)) ELSE r.x END
             ORDER BY r.n)
           FROM jsonb_array_elements(m.reactions) WITH ORDINALITY AS r(x, n))
         ELSE m.reactions || jsonb_build_array(jsonb_build_object('emoji', :emoji::text, 'actor_ids', jsonb_build_array(:actorId::text)))
       END
       FROM c WHERE m.workspace_id = :workspaceId AND m.id = c.message_id RETURNING ${MESSAGE_COLUMNS('m')}`,
        { ...q },
      ),
    );
    return rows[0] && toMessage(rows[0]);
  }

  /** Removes the reaction; the message with its new summary, or nothing when there was none. */
  async remove(reaction: ReactionBindings, tx: Tx): Promise<Message | undefined> {
    return this.change(
      `WITH c AS (
         DELETE FROM reactions
         WHERE workspace_id = :workspaceId AND message_id = :messageId AND emoji = :emoji AND actor_id = :actorId
         RETURNING message_id, emoji, actor_id
       )`,
      'removed',
      reaction,
      tx,
    );
  }

  private async change(
    cte: string,
    change: 'added' | 'removed',
    bindings: ReactionBindings,
    tx: Tx,
  ): Promise<Message | undefined> {
    const { rows } = await prepared(
      queryable(this.db, tx).raw<{ rows: MessageRow[] }>(
        `${cte}
       UPDATE messages m SET reactions_version = m.reactions_version + 1, updated_at = now(), reactions = ${summaryWith(change)}
       FROM c WHERE m.workspace_id = :workspaceId AND m.id = c.message_id RETURNING ${MESSAGE_COLUMNS('m')}`,
        { ...bindings },
      ),
    );
    return rows[0] && toMessage(rows[0]);
  }
}
