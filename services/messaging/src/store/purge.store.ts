import type { Knex } from '@wms/kit/db';

const rowsOf = <T>(result: { rows: T[] }) => result.rows;

/** Removes a deleted workspace's messaging data, channel by channel, a bounded batch per call. */
export class PurgeStore {
  constructor(private readonly db: Knex) {}

  /**
   * One batch of at most `limit` messages: replies of the channel's oldest roots first, then those roots (reactions,
   * mentions, saves, thread read state and client ids go with them by cascade); once a channel has no messages, its
   * read marks and the channel; once none is left, the workspace's outbox rows. True when nothing is left.
   */
  async purgeBatch(workspaceId: string, limit = 500): Promise<boolean> {
    return this.db.transaction(async (trx) => {
      const [channel] = rowsOf<{ id: string }>(await trx.raw('SELECT id FROM channels WHERE workspace_id = ? LIMIT 1', [workspaceId]));
      if (!channel) {
        await trx.raw('DELETE FROM outbox WHERE workspace_id = ?', [workspaceId]);
        return true;
      }
      const roots = rowsOf<{ id: string }>(
        await trx.raw('SELECT id FROM messages WHERE conversation_id = ? AND parent_message_id IS NULL ORDER BY id LIMIT ?', [channel.id, limit]),
      ).map((r) => r.id);
      if (roots.length > 0) {
        const replies = await trx.raw('DELETE FROM messages WHERE id IN (SELECT id FROM messages WHERE parent_message_id = ANY (?::uuid[]) LIMIT ?)', [roots, limit]);
        if ((replies as { rowCount: number }).rowCount < limit) await trx.raw('DELETE FROM messages WHERE id = ANY (?::uuid[])', [roots]);
        return false;
      }
      await trx.raw('DELETE FROM conversation_reads WHERE conversation_id = ?', [channel.id]);
      await trx.raw('DELETE FROM channels WHERE id = ?', [channel.id]);
      return false;
    });
  }
}
