import { isForeignKeyViolation, isUniqueViolation, type Knex, queryable, type Tx } from '@wms/kit/db';
import { isUuid } from '@wms/kit/ids';
import type { Role, WorkspaceUser } from '../domain/model.ts';
import { actorNotFound, alreadyMember, ownerTaken, workspaceNotFound } from '../domain/rules.ts';

interface MemberRow {
  id: string;
  workspace_id: string;
  user_id: string;
  actor_id: string;
  role: Role;
  accepted_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const columns = ['id', 'workspace_id', 'user_id', 'actor_id', 'role', 'accepted_at', 'created_at', 'updated_at'];

const toMember = (r: MemberRow): WorkspaceUser => ({
  id: r.id,
  workspaceId: r.workspace_id,
  userId: r.user_id,
  actorId: r.actor_id,
  role: r.role,
  acceptedAt: r.accepted_at,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** The constraint errors a membership write can meet, as the domain errors they mean. */
function membershipConflict(err: unknown): unknown {
  if (isUniqueViolation(err, 'workspace_users_user_key')) return alreadyMember();
  if (isUniqueViolation(err, 'workspace_users_one_owner')) return ownerTaken();
  if (isForeignKeyViolation(err, 'workspace_users_workspace_id_fkey')) return workspaceNotFound();
  if (isForeignKeyViolation(err, 'workspace_users_actor_id_fkey')) return actorNotFound();
  return err;
}

/** Memberships (`workspace_users`); a removed membership keeps its row (and actor) with `removed_at` set. */
export class MemberStore {
  constructor(private readonly db: Knex) {}

  /** 409 `already_member` when the user already has a membership here, removed or not; 400 `owner_protected` for a second owner. */
  async insert(
    m: { id: string; workspaceId: string; userId: string; actorId: string; role: Role },
    tx?: Tx,
  ): Promise<WorkspaceUser> {
    const db = queryable(this.db, tx);
    const [row] = await db('workspace_users')
      .insert({
        id: m.id,
        workspace_id: m.workspaceId,
        user_id: m.userId,
        actor_id: m.actorId,
        role: m.role,
        accepted_at: db.fn.now(),
      })
      .returning<MemberRow[]>(columns)
      .catch((err: unknown) => {
        throw membershipConflict(err);
      });
    return toMember(row as MemberRow);
  }

  /** Brings back a removed membership with a new role (same id and actor). */
  async reactivate(workspaceId: string, id: string, role: Role, tx?: Tx): Promise<WorkspaceUser | undefined> {
    const db = queryable(this.db, tx);
    const [row] = await db('workspace_users')
      .where({ workspace_id: workspaceId, id })
      .update({ role, removed_at: null, accepted_at: db.fn.now(), updated_at: db.fn.now() })
      .returning<MemberRow[]>(columns)
      .catch((err: unknown) => {
        throw membershipConflict(err);
      });
    return row && toMember(row);
  }

  /** An active membership of the workspace by its id. */
  async find(workspaceId: string, id: string, tx?: Tx): Promise<WorkspaceUser | undefined> {
    if (![workspaceId, id].every(isUuid)) return undefined;
    const row = await queryable(
      this.db,
      tx,
    )('workspace_users')
      .select<MemberRow[]>(columns)
      .where({ workspace_id: workspaceId, id })
      .whereNull('removed_at')
      .first();
    return row && toMember(row);
  }

  /** The user's accepted, active membership of a live workspace. */
  async findAccepted(workspaceId: string, userId: string): Promise<WorkspaceUser | undefined> {
    if (![workspaceId, userId].every(isUuid)) return undefined;
    const row: MemberRow | undefined = await this.db('workspace_users as wu')
      .join('workspaces as w', 'w.id', 'wu.workspace_id')
      .where({ 'wu.workspace_id': workspaceId, 'wu.user_id': userId })
      .whereNull('wu.removed_at')
      .whereNotNull('wu.accepted_at')
      .whereNull('w.deleted_at')
      .first(columns.map((c) => `wu.${c}`));
    return row && toMember(row);
  }

  /** A user's membership row in any state, locked (for add or reactivation). */
  async findAnyByUserForUpdate(
    workspaceId: string,
    userId: string,
    tx: Tx,
  ): Promise<(WorkspaceUser & { removed: boolean }) | undefined> {
    const row = await queryable(
      this.db,
      tx,
    )('workspace_users')
      .select<(MemberRow & { removed_at: Date | null })[]>([...columns, 'removed_at'])
      .where({ workspace_id: workspaceId, user_id: userId })
      .forUpdate()
      .first();
    return row && { ...toMember(row), removed: row.removed_at !== null };
  }

  async list(workspaceId: string): Promise<WorkspaceUser[]> {
    if (!isUuid(workspaceId)) return [];
    const rows = await this.db('workspace_users')
      .select<MemberRow[]>(columns)
      .where({ workspace_id: workspaceId })
      .whereNull('removed_at')
      .orderBy([{ column: 'created_at' }, { column: 'id' }])
      .limit(10_000);
    return rows.map(toMember);
  }

  /** Every user id with an active membership (to invalidate their cached access on deletion). */
  async activeUserIds(workspaceId: string, tx?: Tx): Promise<string[]> {
    if (!isUuid(workspaceId)) return [];
    const rows = await queryable(
      this.db,
      tx,
    )('workspace_users')
      .select<Array<{ user_id: string }>>('user_id')
      .where({ workspace_id: workspaceId })
      .whereNull('removed_at')
      .orderBy('user_id');
    return rows.map((r) => r.user_id);
  }

  /** 400 `owner_protected` when it would make a second owner: the owner steps down first. */
  async setRole(workspaceId: string, id: string, role: Role, tx?: Tx): Promise<WorkspaceUser | undefined> {
    if (![workspaceId, id].every(isUuid)) return undefined;
    const db = queryable(this.db, tx);
    const [row] = await db('workspace_users')
      .where({ workspace_id: workspaceId, id })
      .whereNull('removed_at')
      .update({ role, updated_at: db.fn.now() })
      .returning<MemberRow[]>(columns)
      .catch((err: unknown) => {
        throw membershipConflict(err);
      });
    return row && toMember(row);
  }

  async remove(workspaceId: string, id: string, tx?: Tx): Promise<WorkspaceUser | undefined> {
    if (![workspaceId, id].every(isUuid)) return undefined;
    const db = queryable(this.db, tx);
    const [row] = await db('workspace_users')
      .where({ workspace_id: workspaceId, id })
      .whereNull('removed_at')
      .update({ removed_at: db.fn.now(), updated_at: db.fn.now() })
      .returning<MemberRow[]>(columns);
    return row && toMember(row);
  }

  /** Locks the given members and the workspace owner (in id order, so concurrent changes queue instead of deadlocking). */
  async lockMembers(workspaceId: string, ids: string[], tx: Tx): Promise<WorkspaceUser[]> {
    if (!isUuid(workspaceId)) return [];
    const rows = await queryable(
      this.db,
      tx,
    )('workspace_users')
      .select<MemberRow[]>(columns)
      .where({ workspace_id: workspaceId })
      .whereNull('removed_at')
      .where((q) => {
        q.whereIn('id', ids.filter(isUuid)).orWhere('role', 'owner');
      })
      .orderBy('id')
      .forUpdate();
    return rows.map(toMember);
  }
}
