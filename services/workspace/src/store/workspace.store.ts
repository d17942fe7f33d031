import { isUniqueViolation, type Knex, queryable, type Tx } from '@wms/kit/db';
import { alreadyExists } from '@wms/kit/errors';
import { isUuid } from '@wms/kit/ids';
import type { Workspace } from '../domain/model.ts';

interface WorkspaceRow {
  id: string;
  name: string;
  slug: string;
  avatar_id: string | null;
  created_at: Date;
  updated_at: Date;
}

const columns = ['id', 'name', 'slug', 'avatar_id', 'created_at', 'updated_at'];

const toWorkspace = (r: WorkspaceRow): Workspace => ({
  id: r.id,
  name: r.name,
  slug: r.slug,
  avatarId: r.avatar_id,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const slugTaken = (err: unknown) =>
  isUniqueViolation(err, 'workspaces_slug_key') ? alreadyExists('slug_taken', 'That slug is already taken.') : err;

export class WorkspaceStore {
  constructor(private readonly db: Knex) {}

  async insert(w: { id: string; name: string; slug: string }, tx?: Tx): Promise<Workspace> {
    try {
      const [row] = await queryable(this.db, tx)('workspaces').insert(w).returning<WorkspaceRow[]>(columns);
      return toWorkspace(row as WorkspaceRow);
    } catch (err) {
      throw slugTaken(err);
    }
  }

  /** A workspace that is not deleted. */
  async findLive(id: string, tx?: Tx): Promise<Workspace | undefined> {
    if (!isUuid(id)) return undefined;
    const row = await queryable(
      this.db,
      tx,
    )('workspaces')
      .select<WorkspaceRow[]>(columns)
      .where({ id })
      .whereNull('deleted_at')
      .first();
    return row && toWorkspace(row);
  }

  /** The user's accepted, live workspaces, oldest first. */
  async listForUser(userId: string): Promise<Workspace[]> {
    if (!isUuid(userId)) return [];
    const rows: WorkspaceRow[] = await this.db('workspaces as w')
      .comment("citus: multi-shard (a user's workspaces)")
      .join('workspace_users as wu', 'wu.workspace_id', 'w.id')
      .where('wu.user_id', userId)
      .whereNull('wu.removed_at')
      .whereNotNull('wu.accepted_at')
      .whereNull('w.deleted_at')
      .orderBy([{ column: 'w.created_at' }, { column: 'w.id' }])
      .limit(1000)
      .select(columns.map((c) => `w.${c}`));
    return rows.map(toWorkspace);
  }

  async update(id: string, patch: { name?: string; slug?: string }, tx?: Tx): Promise<Workspace | undefined> {
    if (!isUuid(id)) return undefined;
    const db = queryable(this.db, tx);
    try {
      const [row]: WorkspaceRow[] = await db('workspaces')
        .where({ id })
        .whereNull('deleted_at')
        .update({ ...patch, updated_at: db.fn.now() })
        .returning(columns);
      return row && toWorkspace(row);
    } catch (err) {
      throw slugTaken(err);
    }
  }

  async setAvatar(id: string, avatarId: string | null, tx?: Tx): Promise<Workspace | undefined> {
    if (!isUuid(id)) return undefined;
    const db = queryable(this.db, tx);
    const [row]: WorkspaceRow[] = await db('workspaces')
      .where({ id })
      .whereNull('deleted_at')
      .update({ avatar_id: avatarId, updated_at: db.fn.now() })
      .returning(columns);
    return row && toWorkspace(row);
  }

  /** Marks a workspace deleted; false if it already was. */
  async markDeleted(id: string, tx?: Tx): Promise<boolean> {
    if (!isUuid(id)) return false;
    const db = queryable(this.db, tx);
    const count = await db('workspaces')
      .where({ id })
      .whereNull('deleted_at')
      .update({ deleted_at: db.fn.now(), updated_at: db.fn.now() });
    return count === 1;
  }

  /** Whether the workspace exists and was deleted (only then is its data purged anywhere). */
  async isDeleted(id: string): Promise<boolean> {
    return isUuid(id) && Boolean(await this.db('workspaces').where({ id }).whereNotNull('deleted_at').first('id'));
  }

  /** Removes a deleted workspace's invitations, tokens, members, actors and avatar rows, keeping the row itself (its slug stays taken). */
  async purge(id: string): Promise<void> {
    await this.db.transaction(async (trx) => {
      const deleted = await trx('workspaces')
        .where({ id })
        .whereNotNull('deleted_at')
        .forUpdate()
        .first<{ id: string } | undefined>('id');
      if (!deleted) return;
      await trx('avatars').where({ workspace_id: id }).delete();
      await trx('invitations').where({ workspace_id: id }).delete();
      await trx('tokens').where({ workspace_id: id }).delete();
      await trx('workspace_users').where({ workspace_id: id }).delete();
      await trx('actors').where({ workspace_id: id }).delete();
      await trx('workspaces').where({ id }).update({ avatar_id: null, name: '', updated_at: trx.fn.now() });
    });
  }
}
