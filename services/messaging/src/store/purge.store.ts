import type { Knex } from '@wms/kit/db';

const rowsOf = <T>(result: { rows: T[] }) => result.rows;

/** Removes a deleted workspace's messaging data, channel by channel, a bounded batch per call. */
export class PurgeStore {
  constructor(private readonly db: Knex) {}

  /**
   * One batch: up to `roots` top-level messages of one channel with their replies (reactions, mentions, saves, thread
   * read state and client ids go with them by cascade), else that channel's read marks and the channel, else the
   * workspace's outbox rows. True when nothing of the workspace is left.
   */
  async purgeBatch(workspaceId: string, roots = 200): Promise<boolean> {
    return this.db.transaction(async (trx) => {
      const [channel] = rowsOf<{ id: string }>(await trx.raw('SELECT id FROM channels WHERE workspace_id = ? LIMIT 1', [workspaceId]));
      if (!channel) {
        await trx.raw('DELETE FROM outbox WHERE workspace_id = ?', [workspaceId]);
        return true;
      }
      const ids = rowsOf<{ id: string }>(
        await trx.raw('SELECT id FROM messages WHERE conversation_id = ? AND parent_message_id IS NULL ORDER BY id LIMIT ?', [channel.id, roots]),
      ).map((r) => r.id);
      if (ids.length > 0) {
        await trx.raw('DELETE FROM messages WHERE parent_message_id = ANY (?::uuid[])', [ids]);
        await trx.raw('DELETE FROM messages WHERE id = ANY (?::uuid[])', [ids]);
        return false;
      }
      await trx.raw('DELETE FROM conversation_reads WHERE conversation_id = ?', [channel.id]);
      await trx.raw('DELETE FROM channels WHERE id = ?', [channel.id]);
      return false;
    });
  }
}
