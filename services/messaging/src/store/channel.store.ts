import { isUniqueViolation, type Knex, queryable, type Tx } from '@wms/kit/db';
import { alreadyExists } from '@wms/kit/errors';
import type { Channel } from '../domain/channel.ts';

interface ChannelRow {
  id: string;
  workspace_id: string;
  name: string;
  topic: string | null;
  created_by_actor_id: string;
  created_at: Date;
  updated_at: Date;
}

const columns = ['id', 'workspace_id', 'name', 'topic', 'created_by_actor_id', 'created_at', 'updated_at'];

const toChannel = (r: ChannelRow): Channel => ({
  id: r.id,
  workspaceId: r.workspace_id,
  name: r.name,
  topic: r.topic,
  createdByActorId: r.created_by_actor_id,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export class ChannelStore {
  constructor(private readonly db: Knex) {}

  /** Inserts the channel with its creator as its one member, in one statement. */
  async insert(c: { id: string; workspaceId: string; name: string; topic: string | null; createdByActorId: string }, tx?: Tx): Promise<Channel> {
    try {
      const { rows } = await queryable(this.db, tx).raw<{ rows: ChannelRow[] }>(
        `WITH channel AS (
           INSERT INTO channels (id, workspace_id, name, topic, created_by_actor_id, member_count) VALUES (?, ?, ?, ?, ?, 1)
           RETURNING ${columns.join(', ')}
         ),
         creator AS (INSERT INTO channel_members (channel_id, actor_id, workspace_id, joined_at) SELECT id, created_by_actor_id, workspace_id, created_at FROM channel)
         SELECT * FROM channel`,
        [c.id, c.workspaceId, c.name, c.topic, c.createdByActorId],
      );
      return toChannel(rows[0]!);
    } catch (err) {
      if (isUniqueViolation(err, 'channels_name_key')) throw alreadyExists('channel_name_taken', 'A channel with that name already exists in this workspace.');
      throw err;
    }
  }

  /** A channel of the workspace; another workspace's id is simply not found. */
  async find(workspaceId: string, id: string): Promise<Channel | undefined> {
    const row: ChannelRow | undefined = await this.db('channels').select(columns).where({ workspace_id: workspaceId, id }).first();
    return row && toChannel(row);
  }

  /** The workspace's channels by name (byte order), bounded. */
  async list(workspaceId: string, limit = 1000): Promise<Channel[]> {
    const rows: ChannelRow[] = await this.db('channels').select(columns).where({ workspace_id: workspaceId }).orderBy('name').limit(limit);
    return rows.map(toChannel);
  }
}
