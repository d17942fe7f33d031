import type { Knex } from '@wms/kit/db';
import { isUuid } from '@wms/kit/ids';
import type { Asset } from '../domain/asset.ts';

interface AssetRow {
  id: string;
  workspace_id: string;
  conversation_id: string;
  reserved_by_actor_id: string;
  message_id: string | null;
  name: string;
  content_type: string;
  size_bytes: string;
  status: 'pending' | 'ready';
  storage_key: string | null;
  created_at: Date;
  updated_at: Date;
}

const toAsset = (r: AssetRow): Asset => ({
  id: r.id,
  workspaceId: r.workspace_id,
  conversationId: r.conversation_id,
  reservedByActorId: r.reserved_by_actor_id,
  messageId: r.message_id,
  name: r.name,
  contentType: r.content_type,
  sizeBytes: Number(r.size_bytes),
  status: r.status,
  storageKey: r.storage_key,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export class AssetStore {
  constructor(private readonly db: Knex) {}

  async insert(
    a: Pick<
      Asset,
      'id' | 'workspaceId' | 'conversationId' | 'reservedByActorId' | 'name' | 'contentType' | 'sizeBytes'
    >,
  ): Promise<Asset> {
    const { rows } = await this.db.raw<{ rows: AssetRow[] }>(
      `INSERT INTO assets (id, workspace_id, conversation_id, reserved_by_actor_id, name, content_type, size_bytes)
       VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING *`,
      [a.id, a.workspaceId, a.conversationId, a.reservedByActorId, a.name, a.contentType, a.sizeBytes],
    );
    return toAsset(rows[0]!);
  }

  /** An asset of the workspace; another workspace's id, or a malformed one, is simply not found. */
  async find(workspaceId: string, id: string): Promise<Asset | undefined> {
    if (!isUuid(id)) return undefined;
    const { rows } = await this.db.raw<{ rows: AssetRow[] }>('SELECT * FROM assets WHERE id = ? AND workspace_id = ?', [
      id,
      workspaceId,
    ]);
    return rows[0] && toAsset(rows[0]);
  }

  /** Assets of the workspace by id, in id order; ids of other workspaces, and malformed ones, are left out. */
  async findMany(workspaceId: string, ids: string[]): Promise<Asset[]> {
    const wellFormed = ids.filter(isUuid);
    if (wellFormed.length === 0) return [];
    const { rows } = await this.db.raw<{ rows: AssetRow[] }>(
      'SELECT * FROM assets WHERE id = ANY (?::uuid[]) AND workspace_id = ? ORDER BY id',
      [wellFormed, workspaceId],
    );
    return rows.map(toAsset);
  }

  /**
   * Attaches the actor's unattached reservations of the conversation to a message, all or none: returns the assets
   * when every id qualified, else undefined and nothing changed. A malformed id qualifies for nothing.
   */
  async attach(q: {
    workspaceId: string;
    conversationId: string;
    actorId: string;
    messageId: string;
    ids: string[];
  }): Promise<Asset[] | undefined> {
    if (![q.conversationId, q.messageId, ...q.ids].every(isUuid)) return undefined;
    // One statement: the candidates are locked, and the update happens only when every id is among them.
    const { rows } = await this.db.raw<{ rows: AssetRow[] }>(
      `WITH candidates AS (
         SELECT id FROM assets
         WHERE id = ANY (?::uuid[]) AND workspace_id = ? AND conversation_id = ? AND reserved_by_actor_id = ? AND message_id IS NULL
         FOR UPDATE
       )
       UPDATE assets SET message_id = ?, updated_at = now()
       WHERE workspace_id = ? AND id IN (SELECT id FROM candidates) AND (SELECT count(*) FROM candidates) = ?
       RETURNING *`,
      [q.ids, q.workspaceId, q.conversationId, q.actorId, q.messageId, q.workspaceId, q.ids.length],
    );
    if (rows.length !== q.ids.length) return undefined;
    const byId = new Map(rows.map((r) => [r.id, toAsset(r)]));
    return q.ids.map((id) => byId.get(id)!);
  }

  /** Unattaches the assets of the workspace's messages that never came to be. */
  async detach(workspaceId: string, messageIds: string[]): Promise<void> {
    if (messageIds.length === 0) return;
    await this.db.raw(
      'UPDATE assets SET message_id = NULL, updated_at = now() WHERE message_id = ANY (?::uuid[]) AND workspace_id = ?',
      [messageIds, workspaceId],
    );
  }

  /** Records the stored bytes of a pending asset; undefined when it was already ready (another upload won). */
  async markReady(workspaceId: string, id: string, storageKey: string): Promise<Asset | undefined> {
    const { rows } = await this.db.raw<{ rows: AssetRow[] }>(
      `UPDATE assets SET status = 'ready', storage_key = ?, updated_at = now() WHERE id = ? AND workspace_id = ? AND status = 'pending' RETURNING *`,
      [storageKey, id, workspaceId],
    );
    return rows[0] && toAsset(rows[0]);
  }

  /** Removes up to `limit` reservations no message attached since `before`; returns each one's key (null: no bytes). */
  async deleteUnattached(before: Date, limit = 1000): Promise<Array<string | null>> {
    const { rows } = await this.db.raw<{ rows: Array<{ storage_key: string | null }> }>(
      `/* citus: multi-shard (sweep) */
       DELETE FROM assets WHERE (workspace_id, id) IN (
         SELECT workspace_id, id FROM assets WHERE message_id IS NULL AND created_at < ? ORDER BY created_at LIMIT ?)
       RETURNING storage_key`,
      [before, limit],
    );
    return rows.map((r) => r.storage_key);
  }

  /** Up to `limit` assets of a workspace, any state: the ids and stored keys a purge removes. */
  async ofWorkspace(workspaceId: string, limit: number): Promise<Array<{ id: string; storageKey: string | null }>> {
    const { rows } = await this.db.raw<{ rows: Array<{ id: string; storage_key: string | null }> }>(
      'SELECT id, storage_key FROM assets WHERE workspace_id = ? ORDER BY id LIMIT ?',
      [workspaceId, limit],
    );
    return rows.map((r) => ({ id: r.id, storageKey: r.storage_key }));
  }

  async deleteIds(workspaceId: string, ids: string[]): Promise<void> {
    await this.db.raw('DELETE FROM assets WHERE id = ANY (?::uuid[]) AND workspace_id = ?', [ids, workspaceId]);
  }

  /** Removes the assets of the workspace's deleted messages, returning the keys of their bytes. */
  async deleteOfMessages(workspaceId: string, messageIds: string[]): Promise<string[]> {
    if (messageIds.length === 0) return [];
    const { rows } = await this.db.raw<{ rows: Array<{ storage_key: string | null }> }>(
      'DELETE FROM assets WHERE message_id = ANY (?::uuid[]) AND workspace_id = ? RETURNING storage_key',
      [messageIds, workspaceId],
    );
    return rows.flatMap((r) => (r.storage_key ? [r.storage_key] : []));
  }
}
