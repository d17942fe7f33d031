import { isForeignKeyViolation, type Knex, queryable, type Tx } from '@wms/kit/db';
import { isUuid } from '@wms/kit/ids';
import { workspaceNotFound } from '../domain/rules.ts';

export type AvatarOwner =
  { kind: 'workspace'; workspaceId: string } | { kind: 'actor'; workspaceId: string; actorId: string };

export interface StoredAvatar {
  id: string;
  storageKey: string;
}

const ownerId = (o: AvatarOwner) => (o.kind === 'workspace' ? o.workspaceId : o.actorId);
const ownedBy = (o: AvatarOwner) => ({ workspace_id: o.workspaceId, owner_kind: o.kind, owner_id: ownerId(o) });

export class AvatarStore {
  constructor(private readonly db: Knex) {}

  async insert(id: string, owner: AvatarOwner, storageKey: string, tx?: Tx): Promise<void> {
    await queryable(
      this.db,
      tx,
    )('avatars')
      .insert({ id, ...ownedBy(owner), storage_key: storageKey })
      .catch((err: unknown) => {
        throw isForeignKeyViolation(err, 'avatars_workspace_id_fkey') ? workspaceNotFound() : err;
      });
  }

  async find(owner: AvatarOwner, id: string): Promise<StoredAvatar | undefined> {
    if (![owner.workspaceId, ownerId(owner), id].every(isUuid)) return undefined;
    const row = await this.db('avatars')
      .select<Array<{ id: string; storage_key: string }>>('id', 'storage_key')
      .where({ id, ...ownedBy(owner) })
      .first();
    return row && { id: row.id, storageKey: row.storage_key };
  }

  /** Deletes every avatar row of an owner except `keep`; returns the storage keys to delete. */
  async deleteOthers(owner: AvatarOwner, keep: string | null, tx?: Tx): Promise<string[]> {
    const q = queryable(this.db, tx)('avatars').where(ownedBy(owner));
    if (keep) q.whereNot({ id: keep });
    const rows: Array<{ storage_key: string }> = await q.delete().returning(['storage_key']);
    return rows.map((r) => r.storage_key);
  }

  /** The storage keys of every avatar of a workspace, oldest first. */
  async keysOfWorkspace(workspaceId: string): Promise<string[]> {
    if (!isUuid(workspaceId)) return [];
    const rows = await this.db('avatars')
      .select<Array<{ storage_key: string }>>('storage_key')
      .where({ workspace_id: workspaceId })
      .orderBy([{ column: 'created_at' }, { column: 'id' }]);
    return rows.map((r) => r.storage_key);
  }
}
