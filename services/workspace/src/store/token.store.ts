import { type Knex, queryable, type Tx } from '@wms/kit/db';
import { isUuid } from '@wms/kit/ids';
import type { TokenKind } from '@wms/kit/tokens';
import type { NewToken, Token } from '../domain/model.ts';

interface TokenRow {
  id: string;
  kind: TokenKind;
  workspace_id: string;
  conversation_id: string | null;
  actor_id: string;
  name: string;
  token_prefix: string;
  created_by_actor_id: string;
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

const columns = [
  'id',
  'kind',
  'workspace_id',
  'conversation_id',
  'actor_id',
  'name',
  'token_prefix',
  'created_by_actor_id',
  'created_at',
  'last_used_at',
  'revoked_at',
];

const toToken = (r: TokenRow): Token => ({
  id: r.id,
  kind: r.kind,
  workspaceId: r.workspace_id,
  conversationId: r.conversation_id,
  actorId: r.actor_id,
  name: r.name,
  tokenPrefix: r.token_prefix,
  createdByActorId: r.created_by_actor_id,
  createdAt: r.created_at,
  lastUsedAt: r.last_used_at,
  revokedAt: r.revoked_at,
});

/** How many tokens a listing holds at most: far more than a workspace's integrations. */
export const TOKEN_LIST_LIMIT = 1000;

/** Integration credentials (contract §11): only each secret's SHA-256 is stored. */
export class TokenStore {
  constructor(private readonly db: Knex) {}

  async insert(t: NewToken, tx?: Tx): Promise<Token> {
    const [row] = await queryable(
      this.db,
      tx,
    )('tokens')
      .insert({
        id: t.id,
        kind: t.kind,
        workspace_id: t.workspaceId,
        conversation_id: t.conversationId,
        actor_id: t.actorId,
        name: t.name,
        token_prefix: t.tokenPrefix,
        secret_sha256: t.secretSha256,
        created_by_actor_id: t.createdByActorId,
      })
      .returning<TokenRow[]>(columns);
    return toToken(row as TokenRow);
  }

  /** The workspace's tokens of both kinds, or one conversation's, newest first, revoked ones included, bounded. */
  async list(workspaceId: string, conversationId?: string): Promise<Token[]> {
    if (!isUuid(workspaceId) || (conversationId !== undefined && !isUuid(conversationId))) return [];
    const query = this.db('tokens').select<TokenRow[]>(columns).where({ workspace_id: workspaceId });
    if (conversationId !== undefined) query.where({ conversation_id: conversationId });
    const rows = await query
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .limit(TOKEN_LIST_LIMIT);
    return rows.map(toToken);
  }

  /**
   * Revokes the workspace's token (once: a second revocation keeps the first time); undefined when there is none.
   * With it, its secret's SHA-256, for the gateway's cache.
   */
  async revoke(workspaceId: string, id: string, tx?: Tx): Promise<(Token & { secretSha256: Buffer }) | undefined> {
    if (![workspaceId, id].every(isUuid)) return undefined;
    const db = queryable(this.db, tx);
    const [row]: (TokenRow & { secret_sha256: Buffer })[] = await db('tokens')
      .where({ workspace_id: workspaceId, id })
      .update({ revoked_at: db.raw('coalesce(revoked_at, now())') })
      .returning([...columns, 'secret_sha256']);
    return row && { ...toToken(row), secretSha256: row.secret_sha256 };
  }

  /** The SHA-256 of every unrevoked secret of the workspace, or of one agent in it: what a deletion or deactivation ends. */
  async liveHashes(workspaceId: string, actorId: string | undefined, tx?: Tx): Promise<Buffer[]> {
    const query = queryable(
      this.db,
      tx,
    )('tokens')
      .select<Array<{ secret_sha256: Buffer }>>('secret_sha256')
      .where({ workspace_id: workspaceId })
      .whereNull('revoked_at');
    if (actorId !== undefined) query.where({ actor_id: actorId });
    const rows = await query;
    return rows.map((r) => r.secret_sha256);
  }

  /**
   * The token whose secret has this SHA-256, when it may act now: not revoked, its workspace not deleted, its agent
   * not deactivated, each as committed when read, so a revocation, a deletion or a deactivation counts from the next
   * lookup. Two statements: tokens and workspaces are reference tables, actors are distributed by workspace
   * (placement.ts), and the token names its agent's workspace.
   */
  async findUsable(secretSha256: Buffer): Promise<Token | undefined> {
    const { rows } = await this.db.raw<{ rows: TokenRow[] }>(
      `SELECT ${columns.map((c) => `t.${c}`).join(', ')}
       FROM tokens t JOIN workspaces w ON w.id = t.workspace_id
       WHERE t.secret_sha256 = ? AND t.revoked_at IS NULL AND w.deleted_at IS NULL`,
      [secretSha256],
    );
    const token = rows[0];
    if (!token) return undefined;
    const { rows: active } = await this.db.raw<{ rows: unknown[] }>(
      'SELECT 1 FROM actors WHERE workspace_id = ? AND id = ? AND deactivated_at IS NULL',
      [token.workspace_id, token.actor_id],
    );
    return active.length > 0 ? toToken(token) : undefined;
  }

  /**
   * Records uses: each token's `last_used_at` becomes `at` unless it is already within a minute of it, so that
   * replicas reporting the same minute write once.
   */
  async touch(ids: string[], at: Date): Promise<number> {
    const wellFormed = ids.filter(isUuid);
    if (wellFormed.length === 0) return 0;
    return this.db('tokens')
      .whereIn('id', wellFormed)
      .where((q) => {
        q.whereNull('last_used_at').orWhere(
          'last_used_at',
          '<',
          this.db.raw("?::timestamptz - interval '1 minute'", [at]),
        );
      })
      .update({ last_used_at: at });
  }
}
