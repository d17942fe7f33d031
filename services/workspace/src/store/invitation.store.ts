import { type Knex, type Queryable, queryable, type Tx } from '@wms/kit/db';
import { isUuid } from '@wms/kit/ids';
import { type InvitationStatus, RECEIVED_LIST_MAX, statusAt } from '../domain/invitation.ts';
import type { Invitation, ReceivedInvitation } from '../domain/model.ts';

interface InvitationRow {
  id: string;
  workspace_id: string;
  email: string;
  role: 'admin' | 'member';
  status: InvitationStatus;
  invited_by_actor_id: string;
  workspace_user_id: string | null;
  expires_at: Date;
  created_at: Date;
  updated_at: Date;
}

type ReceivedRow = InvitationRow & {
  workspace_name: string;
  workspace_slug: string;
  workspace_avatar_id: string | null;
};

interface InviterRow {
  workspace_id: string;
  id: string;
  display_name: string;
  avatar_id: string | null;
}

const columns = [
  'id',
  'workspace_id',
  'email',
  'role',
  'status',
  'invited_by_actor_id',
  'workspace_user_id',
  'expires_at',
  'created_at',
  'updated_at',
].map((c) => `i.${c}`);

const toInvitation = (r: InvitationRow, now: Date): Invitation => ({
  id: r.id,
  workspaceId: r.workspace_id,
  email: r.email,
  role: r.role,
  status: statusAt(r.status, r.expires_at, now),
  invitedByActorId: r.invited_by_actor_id,
  workspaceUserId: r.workspace_user_id,
  expiresAt: r.expires_at,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const toReceived = (r: ReceivedRow, inviter: InviterRow | undefined, now: Date): ReceivedInvitation => ({
  invitation: toInvitation(r, now),
  workspace: { id: r.workspace_id, name: r.workspace_name, slug: r.workspace_slug, avatarId: r.workspace_avatar_id },
  // The inviter's actor goes only with the workspace's purge; a blank name is never shown in practice.
  invitedBy: { displayName: inviter?.display_name ?? '', avatarId: inviter?.avatar_id ?? null },
});

/** The service's clock, read when a statement has its answer. */
type Clock = () => Date;

/** A new invitation, or the renewal of the pending one of its address. */
export interface InvitationSend {
  id: string;
  workspaceId: string;
  email: string;
  role: 'admin' | 'member';
  invitedByActorId: string;
  tokenHash: string;
  expiresAt: Date;
}

/**
 * Invitations (contract §12) and the tokens of their mailed links. An invitation's times are the service's clock (`now`),
 * as its expiry is: `expires_at` is exactly 7 days after the `updated_at` of its last sending. Reads take the time to read statuses at (`now`),
 * so that an invitation's expiry follows the service's clock; a lock reads the clock once it holds the row, so that a
 * wait for a racing change cannot let an invitation expire unseen.
 */
export class InvitationStore {
  constructor(private readonly db: Knex) {}

  /**
   * Invites an address: the pending invitation of the address is renewed (role, inviter, expiry), else a new one is
   * made, expiring a pending one whose time is up first; either way the mail's link is added. One statement decides
   * between new and renewed, so concurrent invitations of one address make one invitation.
   */
  async send(s: InvitationSend, now: Date, tx: Tx): Promise<{ invitation: Invitation; created: boolean }> {
    const db = queryable(this.db, tx);
    await db('invitations')
      .where({ workspace_id: s.workspaceId, email: s.email, status: 'pending' })
      .where('expires_at', '<=', now)
      .update({ status: 'expired', updated_at: now });
    const { rows } = await db.raw<{ rows: Array<InvitationRow & { created: boolean }> }>(
      `INSERT INTO invitations AS i
         (id, workspace_id, email, role, status, invited_by_actor_id, expires_at, created_at, updated_at)
       VALUES (:id, :workspaceId, :email, :role, 'pending', :invitedByActorId, :expiresAt, :now, :now)
       ON CONFLICT (workspace_id, email) WHERE status = 'pending'
       DO UPDATE SET role = EXCLUDED.role, invited_by_actor_id = EXCLUDED.invited_by_actor_id,
         expires_at = EXCLUDED.expires_at, updated_at = EXCLUDED.updated_at
       RETURNING ${columns.join(', ')}, (i.xmax = 0) AS created`,
      {
        id: s.id,
        workspaceId: s.workspaceId,
        email: s.email,
        role: s.role,
        invitedByActorId: s.invitedByActorId,
        expiresAt: s.expiresAt,
        now,
      },
    );
    const row = rows[0]!;
    await db('invitation_links').insert({ token_hash: s.tokenHash, invitation_id: row.id });
    return { invitation: toInvitation(row, now), created: row.created };
  }

  /** A workspace's invitation, locked (to revoke it). */
  async lockInWorkspace(workspaceId: string, id: string, now: Clock, tx: Tx): Promise<Invitation | undefined> {
    if (![workspaceId, id].every(isUuid)) return undefined;
    const query = queryable(this.db, tx)('invitations as i').where({ 'i.workspace_id': workspaceId, 'i.id': id });
    return this.locked(query, now);
  }

  /** The pending invitation of an address to a workspace, locked (to renew it, or to accept it with a membership). */
  async lockPending(workspaceId: string, email: string, now: Clock, tx: Tx): Promise<Invitation | undefined> {
    const query = queryable(
      this.db,
      tx,
    )('invitations as i').where({
      'i.workspace_id': workspaceId,
      'i.email': email,
      'i.status': 'pending',
    });
    return this.locked(query, now);
  }

  /** An invitation of a live workspace to `email`, locked (for its invitee to accept or decline it). */
  async lockForInvitee(id: string, email: string, now: Clock, tx: Tx): Promise<Invitation | undefined> {
    if (!isUuid(id)) return undefined;
    return this.locked(this.live(queryable(this.db, tx)).where({ 'i.id': id, 'i.email': email }), now);
  }

  /** The invitation of a live workspace a mailed link's token belongs to, locked (to register from it). */
  async lockByToken(tokenHash: string, now: Clock, tx: Tx): Promise<Invitation | undefined> {
    const query = this.live(queryable(this.db, tx))
      .join('invitation_links as l', 'l.invitation_id', 'i.id')
      .where('l.token_hash', tokenHash);
    return this.locked(query, now);
  }

  /** The invitation `query` finds, locked, its status read at the time the lock was had. */
  private async locked(query: Knex.QueryBuilder, now: Clock): Promise<Invitation | undefined> {
    const row = await query.forUpdate('i').first<InvitationRow | undefined>(columns);
    return row && toInvitation(row, now());
  }

  /** What a mailed link's page shows: its invitation of a live workspace, with the workspace and the inviter. */
  async receivedByToken(tokenHash: string, now: Date): Promise<ReceivedInvitation | undefined> {
    const row = await this.received(this.db)
      .join('invitation_links as l', 'l.invitation_id', 'i.id')
      .where('l.token_hash', tokenHash)
      .first<ReceivedRow | undefined>();
    return row && (await this.withInviters([row], now))[0];
  }

  /** The pending invitations to an address in live workspaces, newest first, bounded. */
  async receivedBy(email: string, now: Date): Promise<ReceivedInvitation[]> {
    const rows = await this.received(this.db)
      .where({ 'i.email': email, 'i.status': 'pending' })
      .where('i.expires_at', '>', now)
      .orderBy('i.id', 'desc')
      .limit(RECEIVED_LIST_MAX);
    return this.withInviters(rows as ReceivedRow[], now);
  }

  /**
   * The invitations with their inviters, read in one statement: invitations are a reference table, and actors are
   * distributed by workspace (placement.ts), so they are not joined; the statement reads the few workspaces named.
   */
  private async withInviters(rows: ReceivedRow[], now: Date): Promise<ReceivedInvitation[]> {
    if (rows.length === 0) return [];
    const inviters: InviterRow[] = await this.db('actors')
      .comment('citus: multi-shard (the inviters of an address, in the workspaces that invited it)')
      .whereRaw('workspace_id = ANY (?::uuid[]) AND id = ANY (?::uuid[])', [
        [...new Set(rows.map((r) => r.workspace_id))],
        [...new Set(rows.map((r) => r.invited_by_actor_id))],
      ])
      .select('workspace_id', 'id', 'display_name', 'avatar_id');
    const byKey = new Map(inviters.map((a) => [`${a.workspace_id}/${a.id}`, a]));
    return rows.map((r) => toReceived(r, byKey.get(`${r.workspace_id}/${r.invited_by_actor_id}`), now));
  }

  /** A page of a workspace's invitations reading `status` at `now`, newest first, after the `cursor` invitation. */
  async list(
    workspaceId: string,
    q: { status: InvitationStatus; cursor?: string | undefined; limit: number },
    now: Date,
  ): Promise<{ items: Invitation[]; more: boolean }> {
    const query = this.db('invitations as i').select<InvitationRow[]>(columns).where('i.workspace_id', workspaceId);
    if (q.status === 'pending') query.where('i.status', 'pending').where('i.expires_at', '>', now);
    else if (q.status === 'expired')
      query.where((w) => {
        w.where('i.status', 'expired').orWhere((p) => {
          p.where('i.status', 'pending').where('i.expires_at', '<=', now);
        });
      });
    else query.where('i.status', q.status);
    if (q.cursor !== undefined) query.where('i.id', '<', q.cursor);
    const rows = await query.orderBy('i.id', 'desc').limit(q.limit + 1);
    return { items: rows.slice(0, q.limit).map((r) => toInvitation(r, now)), more: rows.length > q.limit };
  }

  /** Closes a locked invitation unanswered (acceptance goes through `acceptPendingOf`, with its membership). */
  async close(id: string, status: 'declined' | 'revoked', now: Date, tx: Tx): Promise<void> {
    await queryable(this.db, tx)('invitations').where({ id }).update({ status, updated_at: now });
  }

  /** An address became a member: its pending invitation to the workspace, if any, is accepted into that membership. */
  async acceptPendingOf(workspaceId: string, email: string, workspaceUserId: string, now: Date, tx: Tx): Promise<void> {
    const db = queryable(this.db, tx);
    await db('invitations')
      .where({ workspace_id: workspaceId, email, status: 'pending' })
      .where('expires_at', '>', now)
      .update({ status: 'accepted', workspace_user_id: workspaceUserId, updated_at: now });
  }

  /** Invitations of workspaces that are not deleted. */
  private live(db: Queryable) {
    return db('invitations as i').join('workspaces as w', 'w.id', 'i.workspace_id').whereNull('w.deleted_at');
  }

  /** Invitations of live workspaces with what their invitee sees of the workspace. */
  private received(db: Queryable) {
    return this.live(db).select([
      ...columns,
      'w.name as workspace_name',
      'w.slug as workspace_slug',
      'w.avatar_id as workspace_avatar_id',
    ]);
  }
}
