import { type Knex, queryable, type Tx } from '@wms/kit/db';
import type { MessageWithSave } from '../domain/message.ts';
import { type MessageRow, withSave } from './message.store.ts';

/** The caller's private bookmarks, paged by save order (`seq`, newest first). */
export class SavedStore {
  constructor(private readonly db: Knex) {}

  /**
   * Saves once: a repeat keeps the first save's time. Returns the bookmark time and whether this call made it. (A
   * concurrent identical save waits on the first's insert; the second statement then sees the committed row.)
   */
  async save(actorId: string, workspaceId: string, messageId: string, tx?: Tx): Promise<{ savedAt: Date; created: boolean }> {
    const db = queryable(this.db, tx);
    const inserted = await db.raw<{ rows: Array<{ saved_at: Date }> }>(
      'INSERT INTO saved_messages (actor_id, message_id, workspace_id) VALUES (?, ?, ?) ON CONFLICT DO NOTHING RETURNING saved_at',
      [actorId, messageId, workspaceId],
    );
    if (inserted.rows[0]) return { savedAt: inserted.rows[0].saved_at, created: true };
    const existing = await db.raw<{ rows: Array<{ saved_at: Date }> }>('SELECT saved_at FROM saved_messages WHERE actor_id = ? AND message_id = ?', [actorId, messageId]);
    return { savedAt: existing.rows[0]!.saved_at, created: false };
  }

  /** Removes the bookmark; false when there was none. */
  async unsave(actorId: string, messageId: string, tx?: Tx): Promise<boolean> {
    const { rowCount } = await queryable(this.db, tx).raw('DELETE FROM saved_messages WHERE actor_id = ? AND message_id = ?', [actorId, messageId]);
    return rowCount === 1;
  }

  /** Saved live messages of the workspace, newest save first, after the save `beforeSeq` when given. */
  async page(q: { actorId: string; workspaceId: string; beforeSeq: string | null; limit: number }): Promise<Array<MessageWithSave & { seq: string }>> {
    const { rows } = await this.db.raw<{ rows: Array<MessageRow & { caller_saved_at: Date; seq: string }> }>(
      `SELECT m.*, s.saved_at AS caller_saved_at, s.seq FROM saved_messages s JOIN messages m ON m.id = s.message_id
       WHERE s.actor_id = ? AND s.workspace_id = ? AND m.deleted_at IS NULL ${q.beforeSeq === null ? '' : 'AND s.seq < ?'}
       ORDER BY s.seq DESC LIMIT ?`,
      [q.actorId, q.workspaceId, ...(q.beforeSeq === null ? [] : [q.beforeSeq]), q.limit],
    );
    return rows.map((r) => ({ ...withSave(r), seq: String(r.seq) }));
  }
}
