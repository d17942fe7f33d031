import { type Knex, queryable, type Tx } from '@wms/kit/db';

const rowsOf = <T>(result: { rows: T[] }) => result.rows;

/** Removes a deleted workspace's messaging data, channel by channel, a bounded batch per call. */
export class PurgeStore {
  constructor(private readonly db: Knex) {}

  /**
   * One batch of at most `limit` messages: replies of the channel's oldest roots first, then those roots (reactions,
   * mentions, saves, thread read state, client ids and earlier versions go with them by cascade); once a channel has no messages, its
   * read marks, its members and the channel; once none is left, the workspace's outbox rows. True when nothing is left.
   */
  async purgeBatch(workspaceId: string, limit: number, tx: Tx): Promise<boolean> {
    const db = queryable(this.db, tx);
    const [channel] = rowsOf<{ id: string }>(
      await db.raw('SELECT id FROM channels WHERE workspace_id = ? ORDER BY id LIMIT 1', [workspaceId]),
    );
    if (!channel) {
      await db.raw('DELETE FROM outbox WHERE workspace_id = ?', [workspaceId]);
      return true;
    }
    const roots = rowsOf<{ id: string }>(
      await db.raw(
        'SELECT id FROM messages WHERE workspace_id = ? AND conversation_id = ? AND parent_message_id IS NULL ORDER BY id LIMIT ?',
        [workspaceId, channel.id, limit],
      ),
    ).map((r) => r.id);
    if (roots.length > 0) {
      const replies = await db.raw<{ rowCount: number }>(
        `DELETE FROM messages WHERE workspace_id = :workspaceId AND id IN (
           SELECT id FROM messages WHERE workspace_id = :workspaceId AND parent_message_id = ANY (:roots::uuid[])
           ORDER BY id LIMIT :limit)`,
        { workspaceId, roots, limit },
      );
      if (replies.rowCount < limit)
        await db.raw('DELETE FROM messages WHERE workspace_id = ? AND id = ANY (?::uuid[])', [workspaceId, roots]);
      return false;
    }
    const key = [workspaceId, channel.id];
    await db.raw('DELETE FROM conversation_reads WHERE workspace_id = ? AND conversation_id = ?', key);
    await db.raw('DELETE FROM channel_members WHERE workspace_id = ? AND channel_id = ?', key);
    await db.raw('DELETE FROM channels WHERE workspace_id = ? AND id = ?', key);
    return false;
  }
}
