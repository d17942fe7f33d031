import { type Knex, keylessUpsert, prepared, queryable, sqlInteger, type Tx, untilWritten } from '@wms/kit/db';
import { readBody } from '../domain/markdown.ts';
import {
  CLIENT_ID_TTL_MS,
  LOADING_MS,
  MAX_VERSIONS,
  type Message,
  type MessageChild,
  type MessageVersion,
  type MessageWithSave,
} from '../domain/message.ts';
import { READABLE, READABLE_MESSAGE } from './access.ts';

/** The reaction summary column: emoji by first reaction, actors in reaction order. */
interface ReactionSummaryRow {
  emoji: string;
  actor_ids: string[];
}

export interface MessageRow {
  id: string;
  workspace_id: string;
  conversation_id: string;
  parent_message_id: string | null;
  author_actor_id: string;
  body_text: string;
  /** Null in a row a previous release wrote: read from `body_text`. */
  children: MessageChild[] | null;
  mentioned_actor_ids: string[];
  asset_ids: string[];
  loading_expires_at: Date | null;
  reply_count: number;
  reply_actor_ids: string[];
  last_reply_at: Date | null;
  reactions: ReactionSummaryRow[];
  reactions_version: number;
  edited_at: Date | null;
  deleted_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** The columns a message is read with (never its `search` vector, which only the search statement reads). */
const MESSAGE_FIELDS = [
  'id',
  'workspace_id',
  'conversation_id',
  'parent_message_id',
  'author_actor_id',
  'body_text',
  'children',
  'mentioned_actor_ids',
  'asset_ids',
  'loading_expires_at',
  'reply_count',
  'reply_actor_ids',
  'last_reply_at',
  'reactions',
  'reactions_version',
  'edited_at',
  'deleted_at',
  'created_at',
  'updated_at',
] as const;

/** `MessageRow`'s columns of the messages row `m` (a table alias, or none for a RETURNING list). */
export const MESSAGE_COLUMNS = (m?: string) => MESSAGE_FIELDS.map((f) => (m ? `${m}.${f}` : f)).join(', ');

export const toMessage = (r: MessageRow): Message => ({
  id: r.id,
  workspaceId: r.workspace_id,
  conversationId: r.conversation_id,
  parentMessageId: r.parent_message_id,
  authorActorId: r.author_actor_id,
  bodyText: r.body_text,
  children: r.children ?? readBody(r.body_text),
  mentionedActorIds: r.mentioned_actor_ids,
  assetIds: r.asset_ids,
  loadingExpiresAt: r.loading_expires_at,
  replyCount: r.reply_count,
  replyActorIds: r.reply_actor_ids,
  lastReplyAt: r.last_reply_at,
  reactions: r.reactions.map((x) => ({ emoji: x.emoji, actorIds: x.actor_ids })),
  reactionsVersion: r.reactions_version,
  editedAt: r.edited_at,
  deletedAt: r.deleted_at,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export const withSave = (r: MessageRow & { caller_saved_at: Date | null }): MessageWithSave => ({
  message: toMessage(r),
  savedAt: r.caller_saved_at,
});

/** The caller's bookmark of `m`, joined into reads (`caller_saved_at`); binds `:actorId`, the caller's actor id. */
export const SAVED_JOIN =
  'LEFT JOIN saved_messages s ON s.workspace_id = m.workspace_id AND s.actor_id = :actorId AND s.message_id = m.id';

export type NewMessage = Pick<
  Message,
  | 'id'
  | 'workspaceId'
  | 'conversationId'
  | 'parentMessageId'
  | 'authorActorId'
  | 'bodyText'
  | 'children'
  | 'mentionedActorIds'
  | 'assetIds'
> & {
  /** Shows as loading for five minutes (contract §4). */
  loading: boolean;
};

/** A message as posted, and when its post made the author a member of the conversation (null: it already was). */
export interface Posted {
  message: Message;
  joinedAt: Date | null;
}

export interface PageQuery {
  workspaceId: string;
  conversationId: string;
  /** Replies of this root; top-level messages when null. */
  parentMessageId: string | null;
  /** Only messages older than this id. */
  before: string | null;
  limit: number;
  actorId: string;
}

type SavedRow = MessageRow & { caller_saved_at: Date | null };

/**
 * The CTEs with which a post makes its author a member of the conversation (contract §9), counted, inside the post's
 * own statement: `channel` and `workspace` are columns of `source`, a CTE of the statement; binds `:actorId`, the
 * author's actor id (the caller's). An existing member costs one index probe and no write.
 */
const JOIN_POSTER = (channel: string, workspace: string, source: string) => `joined AS (
           INSERT INTO channel_members (channel_id, actor_id, workspace_id) SELECT ${channel}, :actorId::uuid, ${workspace} FROM ${source}
           ON CONFLICT DO NOTHING
           RETURNING workspace_id, channel_id, joined_at
         ),
         counted AS (
           UPDATE channels ch SET member_count = ch.member_count + 1 FROM joined j WHERE ch.workspace_id = j.workspace_id AND ch.id = j.channel_id
         )`;

/** Statements bind by name (`:name`), as the shared fragments (`READABLE`, `SAVED_JOIN`, `JOIN_POSTER`) do. */
export class MessageStore {
  /** `searchConfig`: the text search configuration of the `search` vectors the writes keep (SEARCH_TEXT_CONFIG). */
  constructor(
    private readonly db: Knex,
    private readonly searchConfig = 'english',
  ) {}

  /**
   * A message of the workspace in a conversation the caller may read, with the caller's bookmark; anything else (another
   * workspace's, a private conversation's to a non-member) is simply not found.
   */
  async find(workspaceId: string, id: string, actorId: string, tx?: Tx): Promise<MessageWithSave | undefined> {
    const { rows } = await queryable(this.db, tx).raw<{ rows: SavedRow[] }>(
      `SELECT ${MESSAGE_COLUMNS('m')}, s.saved_at AS caller_saved_at FROM messages m ${SAVED_JOIN}
       WHERE m.id = :id AND m.workspace_id = :workspaceId AND ${READABLE_MESSAGE('m')}`,
      { id, workspaceId, actorId },
    );
    return rows[0] && withSave(rows[0]);
  }

  /**
   * Locks a message the caller may read for a change that depends on its state (reactions, saves); the caller's
   * transaction holds the lock.
   */
  async lock(workspaceId: string, id: string, actorId: string, tx: Tx): Promise<Message | undefined> {
    const { rows } = await queryable(this.db, tx).raw<{ rows: MessageRow[] }>(
      `SELECT ${MESSAGE_COLUMNS('m')} FROM messages m
       WHERE m.id = :id AND m.workspace_id = :workspaceId AND ${READABLE_MESSAGE('m')} FOR UPDATE OF m`,
      { id, workspaceId, actorId },
    );
    return rows[0] && toMessage(rows[0]);
  }

  /** Locks a live message of the workspace, whoever may read it, for an event about it written in the same transaction. */
  async lockLive(workspaceId: string, id: string, tx: Tx): Promise<Message | undefined> {
    const { rows } = await queryable(this.db, tx).raw<{ rows: MessageRow[] }>(
      `SELECT ${MESSAGE_COLUMNS('m')} FROM messages m WHERE m.id = :id AND m.workspace_id = :workspaceId AND m.deleted_at IS NULL
       FOR UPDATE OF m`,
      { id, workspaceId },
    );
    return rows[0] && toMessage(rows[0]);
  }

  /** Locks a thread's root, deleted or not: the ids it is known by, or nothing when the workspace has no such message. */
  async lockRoot(
    workspaceId: string,
    id: string,
    tx: Tx,
  ): Promise<Pick<Message, 'id' | 'workspaceId' | 'conversationId'> | undefined> {
    const { rows } = await queryable(this.db, tx).raw<{
      rows: Array<{ id: string; workspace_id: string; conversation_id: string }>;
    }>(
      'SELECT id, workspace_id, conversation_id FROM messages WHERE id = :id AND workspace_id = :workspaceId FOR UPDATE',
      {
        id,
        workspaceId,
      },
    );
    const r = rows[0];
    return r && { id: r.id, workspaceId: r.workspace_id, conversationId: r.conversation_id };
  }

  /**
   * Inserts the message into its channel, which the same statement reads: nothing when the workspace has no such
   * channel or the author may not read it (its workspace and channel ids come from the channel row). A poster who was
   * not a member of the (public) channel becomes one (contract §9): `joinedAt` is then the membership's time.
   */
  async insert(m: NewMessage, tx?: Tx): Promise<Posted | undefined> {
    const { rows } = await prepared(
      queryable(this.db, tx).raw<{ rows: Array<MessageRow & { joined_at: Date | null }> }>(
        `WITH c AS (SELECT c.id, c.workspace_id FROM channels c WHERE c.id = :conversationId AND c.workspace_id = :workspaceId AND ${READABLE('c')}),
       ${JOIN_POSTER('c.id', 'c.workspace_id', 'c')},
       inserted AS (
         INSERT INTO messages (id, workspace_id, conversation_id, parent_message_id, author_actor_id, body_text, children, mentioned_actor_ids, asset_ids, loading_expires_at, search)
         SELECT :id::uuid, c.workspace_id, c.id, :parentMessageId::uuid, :actorId::uuid, :bodyText::text, :children::jsonb, :mentionedActorIds::uuid[], :assetIds::uuid[],
           CASE WHEN :loading::boolean THEN now() + :loadingMs::int * interval '1 millisecond' END, to_tsvector(:searchConfig::regconfig, :bodyText::text)
         FROM c
         RETURNING ${MESSAGE_COLUMNS()}
       )
       SELECT inserted.*, (SELECT joined_at FROM joined) AS joined_at FROM inserted`,
        this.newMessageBindings(m),
      ),
    );
    const row = rows[0];
    return row && { message: toMessage(row), joinedAt: row.joined_at };
  }

  /** The bindings of a new message's insert; the author is the caller (`:actorId`). */
  private newMessageBindings(m: NewMessage) {
    return {
      id: m.id,
      workspaceId: m.workspaceId,
      conversationId: m.conversationId,
      parentMessageId: m.parentMessageId,
      actorId: m.authorActorId,
      bodyText: m.bodyText,
      children: JSON.stringify(m.children),
      mentionedActorIds: m.mentionedActorIds,
      assetIds: m.assetIds,
      loading: m.loading,
      loadingMs: LOADING_MS,
      searchConfig: this.searchConfig,
    };
  }

  /**
   * Posts a reply in one statement: counts it on its root (the row lock serialises concurrent replies, so no count is
   * lost), inserts it, and makes the thread followed (contract §5): `force` (the replier and those the reply mentions)
   * follow even after an explicit unfollow; the root's author and those the root mentions follow unless they chose.
   * Nothing when the root is not a live top-level message of the workspace's conversation, or the replier may not
   * read the conversation. A replier who was not a member joins, as with `insert`.
   */
  async insertReply(
    m: NewMessage & { parentMessageId: string },
    force: string[],
    tx: Tx,
  ): Promise<{ root: Message; reply: Message; joinedAt: Date | null } | undefined> {
    const { rows } = await prepared(
      queryable(this.db, tx).raw<{
        rows: Array<MessageRow & { is_root: boolean; joined_at: Date | null; unfollowed: string[] | null }>;
      }>(
        `WITH root AS (
         UPDATE messages SET
           reply_count = reply_count + 1,
           reply_actor_ids = CASE WHEN :actorId::uuid = ANY (reply_actor_ids) THEN reply_actor_ids ELSE array_append(reply_actor_ids, :actorId::uuid) END,
           -- Concurrent replies take the lock in any order; the newest reply's time wins.
           last_reply_at = greatest(last_reply_at, now()),
           updated_at = now()
         WHERE id = :parentMessageId AND workspace_id = :workspaceId AND conversation_id = :conversationId AND parent_message_id IS NULL
           AND deleted_at IS NULL AND ${READABLE_MESSAGE('messages')}
         RETURNING ${MESSAGE_COLUMNS()}
       ),
       ${JOIN_POSTER('root.conversation_id', 'root.workspace_id', 'root')},
       reply AS (
         INSERT INTO messages (id, workspace_id, conversation_id, parent_message_id, author_actor_id, body_text, children, mentioned_actor_ids, asset_ids, loading_expires_at, search)
         SELECT :id::uuid, root.workspace_id, root.conversation_id, root.id, :actorId::uuid, :bodyText::text, :children::jsonb, :mentionedActorIds::uuid[], :assetIds::uuid[],
           CASE WHEN :loading::boolean THEN now() + :loadingMs::int * interval '1 millisecond' END, to_tsvector(:searchConfig::regconfig, :bodyText::text)
         FROM root
         RETURNING ${MESSAGE_COLUMNS()}
       ),
       actors AS (SELECT DISTINCT unnest(:force::uuid[] || r.author_actor_id || r.mentioned_actor_ids) AS actor_id FROM root r),
       refollowed AS (
         UPDATE thread_reads t SET following = true, updated_at = now() FROM root, actors a
         WHERE t.workspace_id = root.workspace_id AND t.root_id = root.id AND t.actor_id = a.actor_id
           AND (t.following IS NULL OR (t.following = false AND a.actor_id = ANY (:force::uuid[])))
       ),
       followed AS (
         INSERT INTO thread_reads (actor_id, root_id, workspace_id, conversation_id, following)
         SELECT a.actor_id, root.id, root.workspace_id, root.conversation_id, true FROM root, actors a ORDER BY a.actor_id
         ON CONFLICT DO NOTHING RETURNING actor_id
       )
       SELECT true AS is_root, root.*, (SELECT joined_at FROM joined) AS joined_at,
         -- Those whose row a concurrent first insert made after this statement's snapshot: neither written here.
         ARRAY(SELECT a.actor_id FROM actors a WHERE a.actor_id NOT IN (SELECT actor_id FROM followed)
           AND NOT EXISTS (SELECT 1 FROM thread_reads t WHERE t.workspace_id = :workspaceId AND t.root_id = :parentMessageId AND t.actor_id = a.actor_id)
         ) AS unfollowed
       FROM root
       UNION ALL SELECT false, reply.*, NULL, NULL FROM reply`,
        { ...this.newMessageBindings(m), force },
      ),
    );
    const root = rows.find((r) => r.is_root);
    const reply = rows.find((r) => !r.is_root);
    if (!root || !reply) return undefined;
    const unfollowed = root.unfollowed ?? [];
    if (unfollowed.length > 0) await this.follow(toMessage(root), unfollowed, force, tx);
    return { root: toMessage(root), reply: toMessage(reply), joinedAt: root.joined_at };
  }

  /**
   * Newest first, keyset-paged by id on the conversation's or the thread's index; nothing when the workspace has no
   * such channel or the caller may not read it (one statement reads the channel and the page: its row joined to the page, one row of nulls when
   * the page is empty).
   */
  async page(q: PageQuery): Promise<MessageWithSave[] | undefined> {
    const { rows } = await this.pageStatement(q);
    if (rows.length === 0) return undefined;
    return rows[0]!.id === null ? [] : rows.map(withSave);
  }

  /** The statement `page` runs, unrun (the end-to-end tests read its plan). */
  pageStatement(q: PageQuery): Knex.Raw<{ rows: SavedRow[] }> {
    const scope = q.parentMessageId === null ? 'm.parent_message_id IS NULL' : 'm.parent_message_id = :parentMessageId';
    return prepared(
      this.db.raw<{ rows: SavedRow[] }>(
        `SELECT p.* FROM channels c LEFT JOIN LATERAL (
         SELECT ${MESSAGE_COLUMNS('m')}, s.saved_at AS caller_saved_at FROM messages m ${SAVED_JOIN}
         WHERE m.workspace_id = :workspaceId AND m.conversation_id = :conversationId AND ${scope} ${q.before === null ? '' : 'AND m.id < :before'}
         ORDER BY m.id DESC LIMIT ${sqlInteger(q.limit)}
       ) p ON true
       WHERE c.id = :conversationId AND c.workspace_id = :workspaceId AND ${READABLE('c')}
       ORDER BY p.id DESC`,
        { ...q },
      ),
    );
  }

  /**
   * Replaces the text of a live message of the workspace (clearing its loading state), keeping the text it replaces as
   * a version (the last `MAX_VERSIONS` - 1 are kept); the mentions found in the new text join those the message has.
   * Nothing when it is deleted. `added`: the mentions the edit added. Call it with the message locked in `tx`
   * (`lockLive`): the statement's snapshot then holds every version an earlier edit kept, so the trimming is exact.
   */
  async edit(
    workspaceId: string,
    id: string,
    e: Pick<Message, 'bodyText' | 'children' | 'mentionedActorIds'>,
    tx: Tx,
  ): Promise<{ message: Message; added: string[] } | undefined> {
    const { rows } = await queryable(this.db, tx).raw<{ rows: Array<MessageRow & { previous: string[] }> }>(
      `WITH old AS (
         SELECT id, body_text, children, mentioned_actor_ids, coalesce(edited_at, created_at) AS written_at FROM messages
         WHERE id = :id AND workspace_id = :workspaceId AND deleted_at IS NULL FOR UPDATE
       ),
       kept AS (
         INSERT INTO message_versions (workspace_id, message_id, body_text, children, mentioned_actor_ids, written_at)
         SELECT :workspaceId, id, body_text, children, mentioned_actor_ids, written_at FROM old
       ),
       trimmed AS (
         DELETE FROM message_versions WHERE workspace_id = :workspaceId AND id IN (
           SELECT v.id FROM message_versions v, old
           WHERE v.workspace_id = :workspaceId AND v.message_id = old.id ORDER BY v.id DESC OFFSET :keep)
       )
       UPDATE messages m SET body_text = :bodyText, children = :children::jsonb,
         mentioned_actor_ids = old.mentioned_actor_ids || ARRAY(
           SELECT a FROM unnest(:mentioned::uuid[]) WITH ORDINALITY AS t(a, n) WHERE a <> ALL (old.mentioned_actor_ids) ORDER BY n),
         search = to_tsvector(:searchConfig::regconfig, :bodyText::text), edited_at = now(), updated_at = now(), loading_expires_at = NULL
       FROM old WHERE m.workspace_id = :workspaceId AND m.id = old.id
       RETURNING ${MESSAGE_COLUMNS('m')}, old.mentioned_actor_ids AS previous`,
      {
        id,
        workspaceId,
        bodyText: e.bodyText,
        children: JSON.stringify(e.children),
        mentioned: e.mentionedActorIds,
        searchConfig: this.searchConfig,
        // The versions kept before this one: with it and the current text, MAX_VERSIONS.
        keep: MAX_VERSIONS - 2,
      },
    );
    const row = rows[0];
    if (!row) return undefined;
    // A new text whose nodes are the old ones (only its spacing changed): the migration's trigger for the previous
    // release took them for stale; they are written again.
    if (row.children === null) await this.keepChildren(workspaceId, id, e.children, tx);
    return {
      message: { ...toMessage(row), children: e.children },
      added: row.mentioned_actor_ids.filter((a) => !row.previous.includes(a)),
    };
  }

  private async keepChildren(workspaceId: string, id: string, children: MessageChild[], tx: Tx): Promise<void> {
    await queryable(this.db, tx).raw(
      'UPDATE messages SET children = :children::jsonb WHERE workspace_id = :workspaceId AND id = :id',
      { workspaceId, id, children: JSON.stringify(children) },
    );
  }

  /**
   * Every text a live message has had, oldest first, the current one last (one statement: one snapshot); none for a
   * deleted or unknown message.
   */
  async history(workspaceId: string, messageId: string): Promise<MessageVersion[]> {
    const { rows } = await this.db.raw<{
      rows: Array<{
        body_text: string;
        children: MessageChild[] | null;
        mentioned_actor_ids: string[];
        written_at: Date;
      }>;
    }>(
      `SELECT body_text, children, mentioned_actor_ids, written_at FROM (
         SELECT v.id, v.body_text, v.children, v.mentioned_actor_ids, v.written_at FROM message_versions v
         WHERE v.workspace_id = :workspaceId AND v.message_id = :messageId
         UNION ALL
         SELECT NULL, m.body_text, m.children, m.mentioned_actor_ids, coalesce(m.edited_at, m.created_at) FROM messages m
         WHERE m.workspace_id = :workspaceId AND m.id = :messageId AND m.deleted_at IS NULL
       ) h ORDER BY h.id NULLS LAST`,
      { workspaceId, messageId },
    );
    return rows.map((r) => ({
      bodyText: r.body_text,
      children: r.children ?? readBody(r.body_text),
      mentionedActorIds: r.mentioned_actor_ids,
      writtenAt: r.written_at,
    }));
  }

  /**
   * Deleted messages of any workspace whose assets the asset service has not yet removed (see `forgetAssets`), oldest
   * first.
   */
  async withUnreleasedAssets(deletedBefore: Date, limit: number): Promise<Array<{ workspaceId: string; id: string }>> {
    const { rows } = await this.db.raw<{ rows: Array<{ workspace_id: string; id: string }> }>(
      `/* citus: multi-shard (cleanup sweep) */
       SELECT workspace_id, id FROM messages WHERE deleted_at IS NOT NULL AND asset_ids <> '{}' AND deleted_at < :deletedBefore
       ORDER BY deleted_at LIMIT :limit`,
      { deletedBefore, limit },
    );
    return rows.map((r) => ({ workspaceId: r.workspace_id, id: r.id }));
  }

  /** Deleted messages of the workspace whose assets were removed no longer name them. */
  async forgetAssets(workspaceId: string, ids: string[]): Promise<void> {
    await this.db.raw(
      `UPDATE messages SET asset_ids = '{}'
       WHERE workspace_id = :workspaceId AND id = ANY (:ids::uuid[]) AND deleted_at IS NOT NULL`,
      { workspaceId, ids },
    );
  }

  /**
   * Fills in the search vector of up to `limit` live messages written before search existed (the search migration
   * adds the column empty); returns how many it found. Found across workspaces, then filled a workspace at a time.
   * Safe beside another replica's sweep and beside edits and deletes: each update takes the rows and checks again
   * that they are live and unfilled.
   */
  async indexForSearch(limit: number): Promise<number> {
    const { rows } = await this.db.raw<{ rows: Array<{ workspace_id: string; ids: string[] }> }>(
      `/* citus: multi-shard (cleanup sweep) */
       SELECT workspace_id, array_agg(id) AS ids FROM (
         SELECT workspace_id, id FROM messages WHERE search IS NULL AND deleted_at IS NULL ORDER BY id LIMIT :limit
       ) unfilled GROUP BY workspace_id`,
      { limit },
    );
    for (const { workspace_id: workspaceId, ids } of rows)
      await this.db.raw(
        `UPDATE messages SET search = to_tsvector(:searchConfig::regconfig, body_text)
         WHERE workspace_id = :workspaceId AND id = ANY (:ids::uuid[]) AND search IS NULL AND deleted_at IS NULL`,
        { searchConfig: this.searchConfig, workspaceId, ids },
      );
    return rows.reduce((n, r) => n + r.ids.length, 0);
  }

  /** Removes up to `limit` client_message_id claims made before `before` (past their 24 hours); returns how many. */
  async deleteClientIds(before: Date, limit: number): Promise<number> {
    const { rowCount } = await this.db.raw<{ rowCount: number }>(
      `/* citus: multi-shard (cleanup sweep) */
       DELETE FROM client_messages c
       USING (SELECT conversation_id, actor_id, client_message_id FROM client_messages WHERE created_at < :before ORDER BY created_at LIMIT :limit) old
       WHERE (c.conversation_id, c.actor_id, c.client_message_id) = (old.conversation_id, old.actor_id, old.client_message_id)`,
      { before, limit },
    );
    return rowCount;
  }

  /**
   * Leaves the placeholder of a live message of the workspace (text, mentions and reactions removed); nothing when
   * already deleted. Four statements, so only in a transaction.
   */
  async softDelete(workspaceId: string, id: string, tx: Tx): Promise<Message | undefined> {
    const db = queryable(this.db, tx);
    const { rows } = await db.raw<{ rows: MessageRow[] }>(
      `UPDATE messages SET deleted_at = now(), updated_at = now(), body_text = '', children = '[]', search = NULL, mentioned_actor_ids = '{}', loading_expires_at = NULL,
         reactions = '[]', reactions_version = reactions_version + CASE WHEN reactions = '[]' THEN 0 ELSE 1 END
       WHERE id = :id AND workspace_id = :workspaceId AND deleted_at IS NULL RETURNING ${MESSAGE_COLUMNS()}`,
      { id, workspaceId },
    );
    if (!rows[0]) return undefined;
    const key = { id, workspaceId };
    await db.raw('DELETE FROM reactions WHERE workspace_id = :workspaceId AND message_id = :id', key);
    await db.raw('DELETE FROM mentions WHERE workspace_id = :workspaceId AND message_id = :id', key);
    await db.raw('DELETE FROM message_versions WHERE workspace_id = :workspaceId AND message_id = :id', key);
    return toMessage(rows[0]);
  }

  /**
   * Claims a `client_message_id` for a new message (contract §4): returns undefined when this post wins the key, or
   * the id of the message that already holds it (claimed within CLIENT_ID_TTL_MS). A concurrent post of the same key waits
   * for the first to commit, then sees its claim. The claim names a message the same transaction inserts.
   */
  async claimClientId(
    key: { workspaceId: string; conversationId: string; actorId: string; clientMessageId: string },
    messageId: string,
    tx: Tx,
  ): Promise<string | undefined> {
    const db = queryable(this.db, tx);
    const claim = { ...key, messageId, ttlSeconds: CLIENT_ID_TTL_MS / 1000 };
    const heldBy = await untilWritten(async () => {
      // A claim older than its time to live is taken over; a live one (or one a concurrent post just made) is held.
      const won = await db.raw<{ rows: Array<{ message_id: string }> }>(
        `WITH ${keylessUpsert({
          update: `UPDATE client_messages SET message_id = :messageId, created_at = now()
            WHERE workspace_id = :workspaceId AND conversation_id = :conversationId AND actor_id = :actorId
              AND client_message_id = :clientMessageId AND created_at < now() - make_interval(secs => :ttlSeconds)`,
          insert: `INSERT INTO client_messages (workspace_id, conversation_id, actor_id, client_message_id, message_id)
            SELECT :workspaceId::uuid, :conversationId::uuid, :actorId::uuid, :clientMessageId::text, :messageId::uuid`,
          returning: 'message_id',
        })}
        SELECT message_id FROM written`,
        claim,
      );
      if (won.rows.length > 0) return { message: undefined };
      const held = await db.raw<{ rows: Array<{ message_id: string }> }>(
        `SELECT message_id FROM client_messages WHERE workspace_id = :workspaceId
           AND conversation_id = :conversationId AND actor_id = :actorId AND client_message_id = :clientMessageId`,
        { ...key },
      );
      // None: the claim that held it was removed meanwhile, and the next try may win.
      return held.rows[0] && { message: held.rows[0].message_id };
    });
    return heldBy.message;
  }

  /**
   * Those of `actorIds` follow the thread of `root`: those of `force` even after an unfollow, the others unless they
   * chose. The caller holds the root's row lock, as every write of several actors' reads of a thread does, so no two
   * of them wait for each other's rows. Inserts first (`ON CONFLICT DO NOTHING` waits for a concurrent first insert of
   * the row to commit), then updates in a new statement, which sees every row the insert found.
   */
  async follow(
    root: Pick<Message, 'id' | 'workspaceId' | 'conversationId'>,
    actorIds: string[],
    force: string[],
    tx: Tx,
  ): Promise<void> {
    const db = queryable(this.db, tx);
    const bindings = {
      rootId: root.id,
      workspaceId: root.workspaceId,
      conversationId: root.conversationId,
      actorIds,
      force,
    };
    const { rows } = await db.raw<{ rows: unknown[] }>(
      `INSERT INTO thread_reads (actor_id, root_id, workspace_id, conversation_id, following)
       SELECT a, :rootId, :workspaceId, :conversationId, true FROM unnest(:actorIds::uuid[]) AS a ORDER BY a
       ON CONFLICT DO NOTHING RETURNING actor_id`,
      bindings,
    );
    if (rows.length === actorIds.length) return;
    await db.raw(
      `UPDATE thread_reads SET following = true, updated_at = now()
       WHERE workspace_id = :workspaceId AND root_id = :rootId AND actor_id = ANY (:actorIds::uuid[])
         AND (following IS NULL OR (following = false AND actor_id = ANY (:force::uuid[])))`,
      bindings,
    );
  }

  /** Mentions for counts, without the author's own. */
  async addMentions(m: Message, threadRootId: string | null, tx?: Tx): Promise<void> {
    const actorIds = m.mentionedActorIds.filter((id) => id !== m.authorActorId);
    if (actorIds.length === 0) return;
    await queryable(this.db, tx).raw(
      `INSERT INTO mentions (workspace_id, actor_id, message_id, conversation_id, thread_root_id)
       SELECT :workspaceId, a, :id, :conversationId, :threadRootId FROM unnest(:actorIds::uuid[]) AS a`,
      { workspaceId: m.workspaceId, id: m.id, conversationId: m.conversationId, threadRootId, actorIds },
    );
  }
}
