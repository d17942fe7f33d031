import type { Knex } from '@wms/kit/db';
import type { MessageWithSave } from '../domain/message.ts';
import type { SearchFilters, SearchKey } from '../domain/search.ts';
import { READABLE } from './access.ts';
import { MESSAGE_COLUMNS, type MessageRow, SAVED_JOIN, withSave } from './message.store.ts';

/** What `ts_headline` puts around each word it marks: characters a message's text does not hold (else no marks). */
export const MARK_START = '\u0002';
export const MARK_END = '\u0003';

export interface SearchRow {
  hit: MessageWithSave;
  /** The text with every matched word between MARK_START and MARK_END; null when the text holds a mark character. */
  marked: string | null;
  key: SearchKey;
}

type Row = MessageRow & { caller_saved_at: Date | null; rank_text: string; marked: string | null };

/**
 * Message search (contract §10): one statement applies the query, the access rule, every filter, the order and the
 * cursor; the text of each hit on the page comes back with its matched words marked (`ts_headline`, run for the page
 * alone).
 */
export class SearchStore {
  constructor(
    private readonly db: Knex,
    private readonly searchConfig = 'english',
  ) {}

  /**
   * A page of the workspace's live messages that match `query` and that the actor may read now, newest first or by
   * rank; nothing when `conversationId` names a conversation the actor may not read.
   */
  async search(q: SearchFilters & { workspaceId: string; actorId: string; query: string; marksQuery: string; after: SearchKey | null; limit: number }): Promise<SearchRow[] | undefined> {
    const where: string[] = ['m.workspace_id = ?', 'm.search @@ q.query', 'm.deleted_at IS NULL', READABLE('c')];
    const bindings: unknown[] = [q.workspaceId, q.actorId];
    const filter = (sql: string, ...values: unknown[]) => {
      where.push(sql);
      bindings.push(...values);
    };
    if (q.conversationId !== null) filter('m.conversation_id = ?', q.conversationId);
    if (q.authorActorId !== null) filter('m.author_actor_id = ?', q.authorActorId);
    if (q.parentMessageId !== null) filter('m.parent_message_id = ?', q.parentMessageId);
    if (q.has === 'asset') filter("m.asset_ids <> '{}'");
    if (q.has === 'reaction') filter("m.reactions <> '[]'::jsonb");
    if (q.has === 'reply') filter('m.reply_count > 0');
    // The API shows milliseconds: the bounds compare what it shows.
    if (q.createdAfter !== null) filter("date_trunc('milliseconds', m.created_at) > ?", q.createdAfter);
    if (q.createdBefore !== null) filter("date_trunc('milliseconds', m.created_at) < ?", q.createdBefore);
    const rank = 'ts_rank_cd(m.search, q.query, 2)';
    if (q.after !== null) {
      if (q.sort === 'newest') filter('m.id < ?', q.after.id);
      else filter(`(${rank}, m.id) < (?::real, ?::uuid)`, q.after.rank, q.after.id);
    }
    const order = q.sort === 'newest' ? 'm.id DESC' : `${rank} DESC, m.id DESC`;
    const page = `SELECT ${MESSAGE_COLUMNS('m')}, s.saved_at AS caller_saved_at, ${rank}::text AS rank_text
      FROM q, messages m JOIN channels c ON c.id = m.conversation_id ${SAVED_JOIN}
      WHERE ${where.join(' AND ')}
      ORDER BY ${order} LIMIT ?`;
    // The marks are made for the page alone, after its order and limit.
    const marked = `CASE WHEN strpos(p.body_text, ?) = 0 AND strpos(p.body_text, ?) = 0
      THEN ts_headline(?::regconfig, p.body_text, q.marks, ?) END AS marked`;
    const options = `HighlightAll=true, StartSel=${MARK_START}, StopSel=${MARK_END}`;
    const head = [this.searchConfig, q.query, this.searchConfig, q.marksQuery];
    const pageBindings = [q.actorId, ...bindings, q.limit];
    const markBindings = [MARK_START, MARK_END, this.searchConfig, options];
    const within = q.conversationId === null ? ',' : ', channels c0 LEFT JOIN LATERAL';
    const sql = `WITH q AS (SELECT websearch_to_tsquery(?::regconfig, ?::text) AS query, websearch_to_tsquery(?::regconfig, ?::text) AS marks)
      SELECT p.*, ${marked}
      FROM q${within} (${page}) p ${q.conversationId === null ? '' : `ON true WHERE c0.id = ? AND c0.workspace_id = ? AND ${READABLE('c0')}`}
      ORDER BY ${q.sort === 'newest' ? 'p.id DESC' : 'p.rank_text::real DESC, p.id DESC'}`;
    const within0 = q.conversationId === null ? [] : [q.conversationId, q.workspaceId, q.actorId];
    const { rows } = await this.db.raw<{ rows: Row[] }>(sql, [...head, ...markBindings, ...pageBindings, ...within0] as never);
    // With a conversation, its row comes back even when the page is empty (one row of nulls), and none when unreadable.
    if (rows.length === 0) return q.conversationId === null ? [] : undefined;
    if (rows[0]!.id === null) return [];
    return rows.map((r) => ({ hit: withSave(r), marked: r.marked, key: { rank: r.rank_text, id: r.id } }));
  }
}
