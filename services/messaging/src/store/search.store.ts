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
    /** How many of the newest messages a search by `newest` walks before it looks further back by index. */
    private readonly recent = 5000,
  ) {}

  /**
   * A page of the workspace's live messages that match `query` and that the actor may read now, newest first or by
   * rank; nothing when `conversationId` names a conversation the actor may not read.
   */
  async search(q: SearchFilters & { workspaceId: string; actorId: string; query: string; marksQuery: string; after: SearchKey | null; limit: number }): Promise<SearchRow[] | undefined> {
    // The query is written where it is used, not taken from a CTE: planned with its value, its selectivity is read
    // from the column's statistics.
    const query = 'websearch_to_tsquery(?::regconfig, ?::text)';
    const queryBindings = [this.searchConfig, q.query];
    const rank = `ts_rank_cd(m.search, ${query}, 2)`;
    const where: string[] = ['m.workspace_id = ?', `m.search @@ ${query}`, 'm.deleted_at IS NULL', READABLE('c')];
    const bindings: unknown[] = [q.workspaceId, ...queryBindings, q.actorId];
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
    const matching = `JOIN channels c ON c.id = m.conversation_id WHERE ${where.join(' AND ')}`;
    let hits: string;
    let hitBindings: unknown[];
    if (q.sort === 'newest') {
      // First the newest `recent` messages (of every workspace, below the cursor), walked newest first until the page
      // is full: a word or phrase that recent messages hold is found there, whatever the planner thinks of its
      // frequency (it takes a phrase's words as independent, so a common phrase looks rare to it). Only when they
      // hold too few hits are the older ones searched, by the plan the statistics choose (the GIN index for a rare
      // word).
      const [below, belowBindings] = q.after === null ? ['', []] : ['WHERE id < ?', [q.after.id]];
      // The oldest of them; none when there are fewer, and then they were all of them.
      const oldestRecent = `SELECT id FROM messages ${below} ORDER BY id DESC OFFSET ${this.recent - 1} LIMIT 1`;
      hits = `(SELECT m.id FROM (SELECT * FROM messages ${below} ORDER BY id DESC LIMIT ${this.recent}) m ${matching} ORDER BY m.id DESC LIMIT ?)
        UNION ALL
        (SELECT m.id FROM messages m ${matching} AND m.id < (${oldestRecent}) ORDER BY m.id DESC LIMIT ?)
        LIMIT ?`;
      hitBindings = [...belowBindings, ...bindings, q.limit, ...bindings, ...belowBindings, q.limit, q.limit];
    } else {
      // Every match is ranked: the GIN index finds them, and no index orders by rank.
      const [after, afterBindings] = q.after === null ? ['', []] : [` AND (${rank}, m.id) < (?::real, ?::uuid)`, [...queryBindings, q.after.rank, q.after.id]];
      hits = `SELECT m.id FROM messages m ${matching}${after} ORDER BY ${rank} DESC, m.id DESC LIMIT ?`;
      hitBindings = [...bindings, ...afterBindings, ...queryBindings, q.limit];
    }
    const page = `SELECT ${MESSAGE_COLUMNS('m')}, s.saved_at AS caller_saved_at, ${rank}::text AS rank_text
      FROM (${hits}) h JOIN messages m ON m.id = h.id ${SAVED_JOIN}`;
    const pageBindings = [...queryBindings, ...hitBindings, q.actorId];
    // The marks are made for the page alone.
    const marked = `CASE WHEN strpos(p.body_text, ?) = 0 AND strpos(p.body_text, ?) = 0
      THEN ts_headline(?::regconfig, p.body_text, websearch_to_tsquery(?::regconfig, ?::text), ?) END AS marked`;
    const options = `HighlightAll=true, StartSel=${MARK_START}, StopSel=${MARK_END}`;
    const markBindings = [MARK_START, MARK_END, this.searchConfig, this.searchConfig, q.marksQuery, options];
    const within = q.conversationId === null ? '' : 'channels c0 LEFT JOIN LATERAL';
    const sql = `SELECT p.*, ${marked}
      FROM ${within} (${page}) p ${q.conversationId === null ? '' : `ON true WHERE c0.id = ? AND c0.workspace_id = ? AND ${READABLE('c0')}`}
      ORDER BY ${q.sort === 'newest' ? 'p.id DESC' : 'p.rank_text::real DESC, p.id DESC'}`;
    const within0 = q.conversationId === null ? [] : [q.conversationId, q.workspaceId, q.actorId];
    const { rows } = await this.db.raw<{ rows: Row[] }>(sql, [...markBindings, ...pageBindings, ...within0] as never);
    // With a conversation, its row comes back even when the page is empty (one row of nulls), and none when unreadable.
    if (rows.length === 0) return q.conversationId === null ? [] : undefined;
    if (rows[0]!.id === null) return [];
    return rows.map((r) => ({ hit: withSave(r), marked: r.marked, key: { rank: r.rank_text, id: r.id } }));
  }
}
