import { type Knex, queryable, type Tx } from '@wms/kit/db';
import type { MessageWithSave } from '../domain/message.ts';
import { READABLE_MESSAGE } from './access.ts';
import { MESSAGE_COLUMNS, type MessageRow, withSave } from './message.store.ts';

/** What saving did: nothing when the message is deleted (`savedAt` null), else the bookmark and whether this save made it. */
export type SaveOutcome =
  { deletedAt: Date; savedAt: null; created: false } | { deletedAt: null; savedAt: Date; created: boolean };

/**
 * The caller's private bookmarks, paged by save order (`seq`, newest first). Statements bind by name (`:name`), as the
 * shared fragment `READABLE_MESSAGE` does.
 */
export class SavedStore {
  constructor(private readonly db: Knex) {}

  /**
   * Saves a live message of the workspace's conversation once, under the message's row lock (so a delete running at
   * the same time cannot slip in between): a repeat keeps the first save's time. Returns whether the message is
   * deleted (then nothing is saved), the bookmark time and whether this call made it; nothing when the conversation
   * has no such message or the actor may not read it. One statement; a concurrent identical save, which this one waited for, is read by a second.
   */
  async save(
    actorId: string,
    workspaceId: string,
    conversationId: string,
    messageId: string,
    tx?: Tx,
  ): Promise<SaveOutcome | undefined> {
    const db = queryable(this.db, tx);
    const { rows } = await db.raw<{
      rows: Array<{ deleted_at: Date | null; created_at: Date | null; earlier_at: Date | null }>;
    }>(
      `WITH m AS (
         SELECT m.id, m.deleted_at FROM messages m
         WHERE m.id = :messageId AND m.workspace_id = :workspaceId AND m.conversation_id = :conversationId AND ${READABLE_MESSAGE('m')}
         FOR UPDATE OF m
       ),
       c AS (
         INSERT INTO saved_messages (actor_id, message_id, workspace_id) SELECT :actorId, m.id, :workspaceId FROM m WHERE m.deleted_at IS NULL
         ON CONFLICT DO NOTHING RETURNING saved_at
       )
       SELECT m.deleted_at, (SELECT saved_at FROM c) AS created_at,
         (SELECT s.saved_at FROM saved_messages s
          WHERE s.workspace_id = :workspaceId AND s.actor_id = :actorId AND s.message_id = m.id) AS earlier_at
       FROM m`,
      { messageId, workspaceId, conversationId, actorId },
    );
    const row = rows[0];
    if (!row) return undefined;
    if (row.deleted_at !== null) return { deletedAt: row.deleted_at, savedAt: null, created: false };
    if (row.created_at !== null) return { deletedAt: null, savedAt: row.created_at, created: true };
    if (row.earlier_at !== null) return { deletedAt: null, savedAt: row.earlier_at, created: false };
    const concurrent = await db.raw<{ rows: Array<{ saved_at: Date }> }>(
      'SELECT saved_at FROM saved_messages WHERE workspace_id = :workspaceId AND actor_id = :actorId AND message_id = :messageId',
      { workspaceId, actorId, messageId },
    );
    return { deletedAt: null, savedAt: concurrent.rows[0]!.saved_at, created: false };
  }

  /** Removes the bookmark; false when there was none. */
  async unsave(workspaceId: string, actorId: string, messageId: string, tx?: Tx): Promise<boolean> {
    const { rowCount } = await queryable(this.db, tx).raw<{ rowCount: number }>(
      'DELETE FROM saved_messages WHERE workspace_id = :workspaceId AND actor_id = :actorId AND message_id = :messageId',
      { workspaceId, actorId, messageId },
    );
    return rowCount === 1;
  }

  /** Saved live messages of the workspace in conversations the actor may read now, newest save first, after the save `beforeSeq` when given. */
  async page(q: {
    actorId: string;
    workspaceId: string;
    beforeSeq: string | null;
    limit: number;
  }): Promise<Array<MessageWithSave & { seq: string }>> {
    const { rows } = await this.db.raw<{ rows: Array<MessageRow & { caller_saved_at: Date; seq: string }> }>(
      `SELECT ${MESSAGE_COLUMNS('m')}, s.saved_at AS caller_saved_at, s.seq FROM saved_messages s
       JOIN messages m ON m.workspace_id = s.workspace_id AND m.id = s.message_id
       WHERE s.actor_id = :actorId AND s.workspace_id = :workspaceId AND m.deleted_at IS NULL AND ${READABLE_MESSAGE('m')}
         ${q.beforeSeq === null ? '' : 'AND s.seq < :beforeSeq'}
       ORDER BY s.seq DESC LIMIT :limit`,
      { ...q },
    );
    return rows.map((r) => ({ ...withSave(r), seq: String(r.seq) }));
  }
}
