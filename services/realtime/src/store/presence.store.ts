import { type Knex, queryable, type Tx } from '@wms/kit/db';
import { isUuid } from '@wms/kit/ids';
import type { PresenceState } from '../domain/presence.ts';
import { lock } from './locks.ts';

interface PresenceRow {
  actor_id: string;
  workspace_id: string;
  actor_channel: boolean;
  presence_member: boolean;
  since: Date;
  missing_since: Date | null;
}

const columns: (keyof PresenceRow)[] = [
  'actor_id',
  'workspace_id',
  'actor_channel',
  'presence_member',
  'since',
  'missing_since',
];

const toState = (r: PresenceRow): PresenceState => ({
  actorId: r.actor_id,
  workspaceId: r.workspace_id,
  actorChannel: r.actor_channel,
  presenceMember: r.presence_member,
  since: r.since,
  missingSince: r.missing_since,
});

export class PresenceStore {
  constructor(private readonly db: Knex) {}

  /** Remembers the actor's workspace (a no-op write when it is known already). */
  async recordActor(actorId: string, workspaceId: string): Promise<void> {
    await this.db.raw(
      `INSERT INTO actor_workspaces (actor_id, workspace_id) VALUES (?, ?)
       ON CONFLICT (actor_id) DO UPDATE SET workspace_id = EXCLUDED.workspace_id WHERE actor_workspaces.workspace_id <> EXCLUDED.workspace_id`,
      [actorId, workspaceId],
    );
  }

  /** The workspace of each actor whose actor channel was authorized, by actor id. */
  async workspacesOf(actorIds: string[], tx?: Tx): Promise<Map<string, string>> {
    const ids = actorIds.filter(isUuid);
    if (ids.length === 0) return new Map();
    const rows = await queryable(
      this.db,
      tx,
    )('actor_workspaces')
      .select<Array<{ actor_id: string; workspace_id: string }>>('actor_id', 'workspace_id')
      .whereIn('actor_id', ids)
      .orderBy('actor_id');
    return new Map(rows.map((r) => [r.actor_id, r.workspace_id]));
  }

  /** Serializes reconciliations, so an older observation of the provider never overwrites a newer one. */
  lock(tx: Tx): Promise<void> {
    return lock(this.db, 'presence', tx);
  }

  /** The stored presence of these actors and of every actor of these workspaces; every actor's without `scope`. */
  async current(scope: { actorIds: string[]; workspaceIds: string[] } | undefined, tx: Tx): Promise<PresenceState[]> {
    const q = queryable(this.db, tx)<PresenceRow>('presence').select(columns).orderBy('actor_id');
    if (scope) {
      const actorIds = scope.actorIds.filter(isUuid);
      const workspaceIds = scope.workspaceIds.filter(isUuid);
      if (actorIds.length === 0 && workspaceIds.length === 0) return [];
      q.where((w) => {
        w.whereIn('actor_id', actorIds).orWhereIn('workspace_id', workspaceIds);
      });
    }
    const rows: PresenceRow[] = await q;
    return rows.map(toState);
  }

  async save(states: PresenceState[], tx: Tx): Promise<void> {
    if (states.length === 0) return;
    await queryable(
      this.db,
      tx,
    )('presence')
      .insert(
        states.map((s) => ({
          actor_id: s.actorId,
          workspace_id: s.workspaceId,
          actor_channel: s.actorChannel,
          presence_member: s.presenceMember,
          since: s.since,
          missing_since: s.missingSince,
        })),
      )
      .onConflict('actor_id')
      .merge(['workspace_id', 'actor_channel', 'presence_member', 'since', 'missing_since']);
  }

  async remove(actorIds: string[], tx: Tx): Promise<void> {
    if (actorIds.length === 0) return;
    await queryable(this.db, tx)('presence').whereIn('actor_id', actorIds).delete();
  }

  /** The workspace's online actors, longest online first. */
  async online(workspaceId: string): Promise<PresenceState[]> {
    const rows: PresenceRow[] = await this.db<PresenceRow>('presence')
      .select(columns)
      .where({ workspace_id: workspaceId })
      .orderBy([{ column: 'since' }, { column: 'actor_id' }]);
    return rows.map(toState);
  }
}
