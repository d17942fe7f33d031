import { isForeignKeyViolation, isUniqueViolation, type Knex, likeLiteral, queryable, type Tx } from '@wms/kit/db';
import { isUuid } from '@wms/kit/ids';
import type { Actor, NewActor } from '../domain/model.ts';
import { alreadyMember, workspaceNotFound } from '../domain/rules.ts';

interface ActorRow {
  id: string;
  workspace_id: string;
  kind: 'user' | 'agent';
  user_id: string | null;
  display_name: string;
  title: string | null;
  avatar_id: string | null;
  managed_by_admins: boolean;
  deactivated_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const columns = [
  'id',
  'workspace_id',
  'kind',
  'user_id',
  'display_name',
  'title',
  'avatar_id',
  'managed_by_admins',
  'deactivated_at',
  'created_at',
  'updated_at',
];

const toActor = (r: ActorRow): Actor => ({
  id: r.id,
  workspaceId: r.workspace_id,
  kind: r.kind,
  userId: r.user_id,
  displayName: r.display_name,
  title: r.title,
  avatarId: r.avatar_id,
  managedByAdmins: r.managed_by_admins,
  deactivatedAt: r.deactivated_at,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export class ActorStore {
  constructor(private readonly db: Knex) {}

  async insert(a: NewActor, tx?: Tx): Promise<Actor> {
    const [row] = await queryable(
      this.db,
      tx,
    )('actors')
      .insert({
        id: a.id,
        workspace_id: a.workspaceId,
        kind: a.kind,
        user_id: a.userId,
        display_name: a.displayName,
        title: a.title,
        managed_by_admins: a.managedByAdmins,
      })
      .returning<ActorRow[]>(columns)
      .catch((err: unknown) => {
        // One user actor per user and workspace: a second one means the user is a member already.
        if (isUniqueViolation(err, 'actors_user_per_workspace')) throw alreadyMember();
        throw isForeignKeyViolation(err, 'actors_workspace_id_fkey') ? workspaceNotFound() : err;
      });
    return toActor(row as ActorRow);
  }

  async find(workspaceId: string, id: string, tx?: Tx): Promise<Actor | undefined> {
    if (![workspaceId, id].every(isUuid)) return undefined;
    const row = await queryable(
      this.db,
      tx,
    )('actors')
      .select<ActorRow[]>(columns)
      .where({ workspace_id: workspaceId, id })
      .first();
    return row && toActor(row);
  }

  /** Actors of one workspace by id, in one query, in id order; ids of other workspaces, and malformed ones, are left out. */
  async findMany(workspaceId: string, ids: string[]): Promise<Actor[]> {
    const wellFormed = ids.filter(isUuid);
    if (!isUuid(workspaceId) || wellFormed.length === 0) return [];
    const rows = await this.db('actors')
      .select<ActorRow[]>(columns)
      .where({ workspace_id: workspaceId })
      .whereIn('id', wellFormed)
      .orderBy('id');
    return rows.map(toActor);
  }

  /**
   * The workspace's actors by creation, bounded; with `contains`, those whose display name holds it
   * (case-insensitive), the ones starting with it first.
   */
  async list(workspaceId: string, contains?: string): Promise<Actor[]> {
    if (!isUuid(workspaceId)) return [];
    const query = this.db('actors').select<ActorRow[]>(columns).where({ workspace_id: workspaceId });
    if (contains !== undefined) {
      // As LIKE patterns, which the trigram index on lower(display_name) answers.
      const text = likeLiteral(contains);
      query
        .whereRaw("lower(display_name) LIKE '%' || lower(?) || '%'", [text])
        .orderByRaw("lower(display_name) LIKE lower(?) || '%' DESC", [text]);
    }
    const rows = await query.orderBy([{ column: 'created_at' }, { column: 'id' }]).limit(10_000);
    return rows.map(toActor);
  }

  async update(
    workspaceId: string,
    id: string,
    patch: { displayName?: string; title?: string | null },
    tx?: Tx,
  ): Promise<Actor | undefined> {
    if (![workspaceId, id].every(isUuid)) return undefined;
    const db = queryable(this.db, tx);
    const values: Record<string, unknown> = { updated_at: db.fn.now() };
    if (patch.displayName !== undefined) values.display_name = patch.displayName;
    if (patch.title !== undefined) values.title = patch.title;
    const [row]: ActorRow[] = await db('actors')
      .where({ workspace_id: workspaceId, id })
      .update(values)
      .returning(columns);
    return row && toActor(row);
  }

  async setDeactivated(workspaceId: string, id: string, deactivated: boolean, tx?: Tx): Promise<Actor | undefined> {
    if (![workspaceId, id].every(isUuid)) return undefined;
    const db = queryable(this.db, tx);
    const [row]: ActorRow[] = await db('actors')
      .where({ workspace_id: workspaceId, id })
      .update({ deactivated_at: deactivated ? db.fn.now() : null, updated_at: db.fn.now() })
      .returning(columns);
    return row && toActor(row);
  }

  async setAvatar(workspaceId: string, id: string, avatarId: string | null, tx?: Tx): Promise<Actor | undefined> {
    if (![workspaceId, id].every(isUuid)) return undefined;
    const db = queryable(this.db, tx);
    const [row]: ActorRow[] = await db('actors')
      .where({ workspace_id: workspaceId, id })
      .update({ avatar_id: avatarId, updated_at: db.fn.now() })
      .returning(columns);
    return row && toActor(row);
  }
}
