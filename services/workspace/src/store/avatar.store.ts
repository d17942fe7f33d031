import type { Knex } from '@wms/kit/db';

export type AvatarOwner = { kind: 'workspace'; workspaceId: string } | { kind: 'actor'; workspaceId: string; actorId: string };

export interface StoredAvatar {
  id: string;
  storageKey: string;
}

const ownerId = (o: AvatarOwner) => (o.kind === 'workspace' ? o.workspaceId : o.actorId);

export class AvatarStore {
  constructor(private readonly db: Knex) {}

  async insert(id: string, owner: AvatarOwner, storageKey: string, db: Knex = this.db): Promise<void> {
    await db('avatars').insert({ id, workspace_id: owner.workspaceId, owner_kind: owner.kind, owner_id: ownerId(owner), storage_key: storageKey });
  }

  async find(owner: AvatarOwner, id: string): Promise<StoredAvatar | undefined> {
    const row: { id: string; storage_key: string } | undefined = await this.db('avatars')
      .select('id', 'storage_key')
      .where({ id, workspace_id: owner.workspaceId, owner_kind: owner.kind, owner_id: ownerId(owner) })
      .first();
    return row && { id: row.id, storageKey: row.storage_key };
  }

  /** Deletes every avatar row of an owner except `keep`; returns the storage keys to delete. */
  async deleteOthers(owner: AvatarOwner, keep: string | null, db: Knex): Promise<string[]> {
    const q = db('avatars').where({ workspace_id: owner.workspaceId, owner_kind: owner.kind, owner_id: ownerId(owner) });
    if (keep) q.whereNot({ id: keep });
    const rows: Array<{ storage_key: string }> = await q.delete().returning(['storage_key']);
    return rows.map((r) => r.storage_key);
  }

  async keysOfWorkspace(workspaceId: string): Promise<string[]> {
    const rows: Array<{ storage_key: string }> = await this.db('avatars').select('storage_key').where({ workspace_id: workspaceId });
    return rows.map((r) => r.storage_key);
  }
}
