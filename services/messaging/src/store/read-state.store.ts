import { type Knex, keylessUpsert, prepared, queryable, sqlInteger, type Tx, untilWritten } from '@wms/kit/db';
import type { Message } from '../domain/message.ts';
import { type Counts, followsImplicitly, type Mark, type Thread, type ThreadMark } from '../domain/read-state.ts';
import { READABLE_MESSAGE } from './access.ts';
import { MESSAGE_COLUMNS, type MessageRow, SAVED_JOIN, withSave } from './message.store.ts';

/** Ids sort below every UUIDv7, so "after nothing read" counts everything. */
const NOTHING_READ = '00000000-0000-0000-0000-000000000000';

interface MarkRow {
  last_read_message_id: string | null;
  last_read_at: Date | null;
  updated_at: Date;
  following?: boolean | null;
}

const toMark = (r: MarkRow | undefined): ThreadMark =>
  r
    ? {
        lastReadMessageId: r.last_read_message_id,
        lastReadAt: r.last_read_at,
        updatedAt: r.updated_at,
        following: r.following ?? null,
      }
    : { lastReadMessageId: null, lastReadAt: null, updatedAt: null, following: null };

interface CountsRow {
  unread: number;
  mentions: number;
}

const toCounts = (r: CountsRow): Counts => ({ unreadCount: r.unread, mentionCount: r.mentions });

/**
 * The columns `unread` and `mentions` of a conversation for an actor: its top-level messages after the actor's mark
 * (not deleted, not the actor's own; all of them when the mark is null) and those of them that mention the actor.
 * `workspace`, `conversation` and `mark` are SQL expressions; the fragment binds `:actorId`, the actor's id.
 */
export const CONVERSATION_COUNTS = (workspace: string, conversation: string, mark: string) => `
  (SELECT count(*)::int FROM messages x WHERE x.workspace_id = ${workspace} AND x.conversation_id = ${conversation} AND x.parent_message_id IS NULL
     AND x.id > coalesce(${mark}, '${NOTHING_READ}'::uuid) AND x.deleted_at IS NULL AND x.author_actor_id <> :actorId) AS unread,
  (SELECT count(*)::int FROM mentions y WHERE y.workspace_id = ${workspace} AND y.actor_id = :actorId AND y.conversation_id = ${conversation} AND y.thread_root_id IS NULL
     AND y.message_id > coalesce(${mark}, '${NOTHING_READ}'::uuid)) AS mentions`;

/**
 * The counts of one conversation: binds `:actorId`, `:workspaceId`, `:conversationId` and `:after` (the mark; null:
 * nothing read).
 */
const COUNTS_OF_ONE = `SELECT ${CONVERSATION_COUNTS(':workspaceId::uuid', ':conversationId::uuid', ':after::uuid')}`;

/**
 * Read marks per actor for conversations and threads, with unread and mention counts taken as index range scans from
 * the mark (messages_top_idx / messages_replies_idx include author and deletion; mentions have their own indexes).
 * Statements bind by name (`:name`), as the shared fragments (`READABLE_MESSAGE`, `SAVED_JOIN`,
 * `CONVERSATION_COUNTS`) do.
 */
export class ReadStateStore {
  constructor(private readonly db: Knex) {}

  async conversationMark(workspaceId: string, actorId: string, conversationId: string, tx?: Tx): Promise<Mark> {
    const { rows } = await queryable(this.db, tx).raw<{ rows: MarkRow[] }>(
      `SELECT last_read_message_id, last_read_at, updated_at FROM conversation_reads
       WHERE workspace_id = :workspaceId AND actor_id = :actorId AND conversation_id = :conversationId`,
      { workspaceId, actorId, conversationId },
    );
    return toMark(rows[0]);
  }

  /**
   * Moves the actor's mark to a message of the workspace's conversation and counts what is unread after it, in one
   * statement; nothing when the conversation has no such message or the actor may not read it.
   */
  async markConversation(
    actorId: string,
    workspaceId: string,
    conversationId: string,
    messageId: string,
    tx?: Tx,
  ): Promise<(Mark & Counts) | undefined> {
    const db = queryable(this.db, tx);
    const written = await untilWritten(async () => {
      const { rows } = await db.raw<{ rows: Array<{ found: boolean } & Partial<MarkRow> & CountsRow> }>(
        `WITH target AS (
           SELECT m.workspace_id, m.conversation_id, m.id FROM messages m
           WHERE m.id = :messageId AND m.workspace_id = :workspaceId AND m.conversation_id = :conversationId AND ${READABLE_MESSAGE('m')}
         ),
         ${keylessUpsert({
           update: `UPDATE conversation_reads r SET last_read_message_id = t.id, last_read_at = now(), updated_at = now()
             FROM target t WHERE r.workspace_id = t.workspace_id AND r.actor_id = :actorId AND r.conversation_id = t.conversation_id`,
           insert: `INSERT INTO conversation_reads (actor_id, workspace_id, conversation_id, last_read_message_id, last_read_at)
             SELECT :actorId, t.workspace_id, t.conversation_id, t.id, now() FROM target t`,
           returning: 'last_read_message_id, last_read_at, updated_at',
         })}
         SELECT EXISTS (SELECT 1 FROM target) AS found, written.*, counts.*
         FROM (VALUES (1)) one LEFT JOIN written ON true CROSS JOIN (${COUNTS_OF_ONE}) counts`,
        { actorId, messageId, workspaceId, conversationId, after: messageId },
      );
      const row = rows[0]!;
      if (!row.found) return { mark: undefined };
      return row.updated_at ? { mark: { ...toMark(row as MarkRow), ...toCounts(row) } } : undefined;
    });
    return written.mark;
  }

  /** Unread top-level messages after the mark (not deleted, not the actor's own) and those that mention the actor. */
  async conversationCounts(
    actorId: string,
    conversation: { workspaceId: string; conversationId: string },
    after: string | null,
    tx?: Tx,
  ): Promise<Counts> {
    const { rows } = await queryable(this.db, tx).raw<{ rows: CountsRow[] }>(COUNTS_OF_ONE, {
      actorId,
      ...conversation,
      after,
    });
    return toCounts(rows[0]!);
  }

  async threadMark(workspaceId: string, actorId: string, rootId: string, tx?: Tx): Promise<ThreadMark> {
    const { rows } = await queryable(this.db, tx).raw<{ rows: MarkRow[] }>(
      `SELECT last_read_message_id, last_read_at, updated_at, following FROM thread_reads
       WHERE workspace_id = :workspaceId AND actor_id = :actorId AND root_id = :rootId`,
      { workspaceId, actorId, rootId },
    );
    return toMark(rows[0]);
  }

  async markThread(actorId: string, root: Message, messageId: string, tx?: Tx): Promise<ThreadMark> {
    return this.writeThreadRead(actorId, root, tx, {
      set: 'last_read_message_id = :messageId::uuid, last_read_at = now()',
      columns: 'last_read_message_id, last_read_at',
      values: ':messageId::uuid, now()',
      bindings: { messageId },
    });
  }

  async setFollowing(actorId: string, root: Message, following: boolean, tx?: Tx): Promise<ThreadMark> {
    return this.writeThreadRead(actorId, root, tx, {
      set: 'following = :following::boolean',
      columns: 'following',
      values: ':following::boolean',
      bindings: { following },
    });
  }

  /** The actor's row of the thread's reads: `set` on it, or inserted with `columns` as `values` when missing. */
  private async writeThreadRead(
    actorId: string,
    root: Message,
    tx: Tx | undefined,
    w: { set: string; columns: string; values: string; bindings: Record<string, unknown> },
  ): Promise<ThreadMark> {
    const db = queryable(this.db, tx);
    const row = await untilWritten(async () => {
      const { rows } = await db.raw<{ rows: MarkRow[] }>(
        `WITH ${keylessUpsert({
          update: `UPDATE thread_reads SET ${w.set}, updated_at = now()
            WHERE workspace_id = :workspaceId AND actor_id = :actorId AND root_id = :rootId`,
          insert: `INSERT INTO thread_reads (actor_id, root_id, workspace_id, conversation_id, ${w.columns})
            SELECT :actorId::uuid, :rootId::uuid, :workspaceId::uuid, :conversationId::uuid, ${w.values}`,
          returning: 'last_read_message_id, last_read_at, updated_at, following',
        })}
        SELECT * FROM written`,
        { actorId, rootId: root.id, workspaceId: root.workspaceId, conversationId: root.conversationId, ...w.bindings },
      );
      return rows[0];
    });
    return toMark(row);
  }

  /** Unread replies of the thread after the mark (not deleted, not the actor's own) and those that mention the actor. */
  async threadCounts(
    actorId: string,
    root: { workspaceId: string; rootId: string },
    after: string | null,
    tx?: Tx,
  ): Promise<Counts> {
    const { rows } = await queryable(this.db, tx).raw<{ rows: Array<{ unread: number; mentions: number }> }>(
      `SELECT
         (SELECT count(*)::int FROM messages WHERE workspace_id = :workspaceId AND parent_message_id = :rootId
            AND id > :after AND deleted_at IS NULL AND author_actor_id <> :actorId) AS unread,
         (SELECT count(*)::int FROM mentions WHERE workspace_id = :workspaceId AND actor_id = :actorId
            AND thread_root_id = :rootId AND message_id > :after) AS mentions`,
      { ...root, after: after ?? NOTHING_READ, actorId },
    );
    return { unreadCount: rows[0]!.unread, mentionCount: rows[0]!.mentions };
  }

  /**
   * Threads (roots with a reply) of the workspace's conversations the actor may read now, by root id, newest first:
   * those the actor follows, or all of them, each with whether the actor follows it. Counts are range scans per root, taken only for the roots the page reaches.
   */
  async threads(q: {
    workspaceId: string;
    actorId: string;
    following: boolean;
    unread: boolean;
    before: string | null;
    limit: number;
  }): Promise<Thread[]> {
    const a = q.actorId;
    const v = q.following
      ? {
          from: 'thread_reads t JOIN messages m ON m.workspace_id = t.workspace_id AND m.id = t.root_id',
          where: 't.actor_id = :actorId AND t.following AND m.workspace_id = :workspaceId AND m.reply_count > 0',
          key: 't.root_id',
        }
      : {
          from: 'messages m LEFT JOIN thread_reads t ON t.workspace_id = m.workspace_id AND t.actor_id = :actorId AND t.root_id = m.id',
          where: 'm.workspace_id = :workspaceId AND m.parent_message_id IS NULL AND m.reply_count > 0',
          key: 'm.id',
        };
    const { rows } = await prepared(
      this.db.raw<{
        rows: Array<
          MessageRow & {
            caller_saved_at: Date | null;
            following: boolean | null;
            mark: string | null;
            unread: number;
            mentions: number;
          }
        >;
      }>(
        `SELECT ${MESSAGE_COLUMNS('m')}, s.saved_at AS caller_saved_at, t.last_read_message_id AS mark, c.unread, c.mentions, t.following
       FROM ${v.from}
       ${SAVED_JOIN}
       CROSS JOIN LATERAL (SELECT
         (SELECT count(*)::int FROM messages r WHERE r.workspace_id = m.workspace_id AND r.parent_message_id = m.id AND r.id > coalesce(t.last_read_message_id, :nothingRead)
            AND r.deleted_at IS NULL AND r.author_actor_id <> :actorId) AS unread,
         (SELECT count(*)::int FROM mentions x
          WHERE x.workspace_id = m.workspace_id AND x.actor_id = :actorId AND x.thread_root_id = m.id AND x.message_id > coalesce(t.last_read_message_id, :nothingRead)) AS mentions
       ) c
       WHERE ${v.where} AND ${READABLE_MESSAGE('m')} ${q.before === null ? '' : `AND ${v.key} < :before`} ${q.unread ? 'AND c.unread > 0' : ''}
       ORDER BY ${v.key} DESC LIMIT ${sqlInteger(q.limit)}`,
        { actorId: a, workspaceId: q.workspaceId, nothingRead: NOTHING_READ, before: q.before },
      ),
    );
    return rows.map((r) => {
      const root = withSave(r);
      return {
        root,
        following: r.following ?? followsImplicitly(root.message, a),
        lastReadMessageId: r.mark,
        unreadCount: r.unread,
        mentionCount: r.mentions,
      };
    });
  }
}
