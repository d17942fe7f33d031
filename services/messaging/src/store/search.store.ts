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
 * alone). A search within a conversation that finds nothing takes a second statement, to tell whether it may be read.
 */
export class SearchStore {
  constructor(
    private readonly db: Knex,
    private readonly searchConfig = 'english',
    /** How many of the newest messages a search by `newest` walks before it looks further back by index. */
    private readonly recent = 5000,
    /** How many of the newest matches a search by `relevance` ranks (docs/api.md and OpenAPI say 1,000). */
    private readonly ranked = 1000,
  ) {}

  /**
   * A page of the workspace's live messages that match `query` and that the actor may read now, newest first or by
   * rank; nothing when `conversationId` names a conversation the actor may not read.
   */
  async search(
    q: SearchFilters & {
      workspaceId: string;
      actorId: string;
      query: string;
      marksQuery: string;
      after: SearchKey | null;
      limit: number;
    },
  ): Promise<SearchRow[] | undefined> {
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
    // The newest matches, newest first, below `beforeId`, in up to three steps that stop once `limit` are found.
    // 1. The newest `recent` messages (of every workspace) are walked: what recent messages hold is found there,
    //    whatever the planner thinks of its frequency (it takes a phrase's words as independent, so a common phrase
    //    looks rare to it).
    // 2. When they held a tenth of the page or more, matches are likely common enough to fill it by walking on, up to
    //    10 × `recent` in all.
    // 3. The rest, older than what was walked, by the plan the statistics choose: the GIN index for a rare word.
    const newest = (beforeId: string | null, limit: number): [string, unknown[]] => {
      const [below, belowBindings] = beforeId === null ? ['', []] : ['AND id < ?', [beforeId]];
      const walk = (rows: number, from = '') =>
        `SELECT * FROM messages WHERE true ${below} ${from} ORDER BY id DESC LIMIT ${rows}`;
      // The oldest of the newest `rows`; none when there are fewer, and then they were all of them.
      const oldest = (rows: number) =>
        `(SELECT id FROM messages WHERE true ${below} ORDER BY id DESC OFFSET ${rows - 1} LIMIT 1)`;
      const dense = `(SELECT count(*) FROM first) >= ${Math.ceil(limit / 10)}`;
      return [
        `WITH first AS MATERIALIZED (SELECT m.id FROM (${walk(this.recent)}) m ${matching} ORDER BY m.id DESC LIMIT ?)
        (SELECT id FROM first ORDER BY id DESC)
        UNION ALL
        (SELECT m.id FROM (${walk(9 * this.recent, `AND id < ${oldest(this.recent)}`)}) m ${matching} AND ${dense} ORDER BY m.id DESC LIMIT ?)
        UNION ALL
        (SELECT m.id FROM messages m ${matching} AND m.id < CASE WHEN ${dense} THEN ${oldest(10 * this.recent)} ELSE ${oldest(this.recent)} END
         ORDER BY m.id DESC LIMIT ?)
        LIMIT ?`,
        [
          ...belowBindings,
          ...bindings,
          limit,
          ...belowBindings,
          ...belowBindings,
          ...bindings,
          limit,
          ...bindings,
          ...belowBindings,
          ...belowBindings,
          limit,
          limit,
        ],
      ];
    };
    // The newest `ranked` matches are ranked, not every one: no index orders by rank, and ranking the hundreds of
    // thousands of messages that hold a common word would take seconds.
    const byRank = (): [string, unknown[]] => {
      const [candidates, candidateBindings] = newest(null, this.ranked);
      const [after, afterBindings] =
        q.after === null
          ? ['', []]
          : [`WHERE (${rank}, m.id) < (?::real, ?::uuid)`, [...queryBindings, q.after.rank, q.after.id]];
      return [
        `SELECT m.id FROM (${candidates}) h JOIN messages m ON m.id = h.id ${after} ORDER BY ${rank} DESC, m.id DESC LIMIT ?`,
        [...candidateBindings, ...afterBindings, ...queryBindings, q.limit],
      ];
    };
    const [hits, hitBindings] = q.sort === 'newest' ? newest(q.after?.id ?? null, q.limit) : byRank();
    const page = `SELECT ${MESSAGE_COLUMNS('m')}, s.saved_at AS caller_saved_at, ${rank}::text AS rank_text
      FROM (${hits}) h JOIN messages m ON m.id = h.id ${SAVED_JOIN}`;
    const pageBindings = [...queryBindings, ...hitBindings, q.actorId];
    // The marks are made for the page alone.
    const marked = `CASE WHEN strpos(p.body_text, ?) = 0 AND strpos(p.body_text, ?) = 0
      THEN ts_headline(?::regconfig, p.body_text, websearch_to_tsquery(?::regconfig, ?::text), ?) END AS marked`;
    const options = `HighlightAll=true, StartSel=${MARK_START}, StopSel=${MARK_END}`;
    const markBindings = [MARK_START, MARK_END, this.searchConfig, this.searchConfig, q.marksQuery, options];
    const sql = `SELECT p.*, ${marked} FROM (${page}) p ORDER BY ${q.sort === 'newest' ? 'p.id DESC' : 'p.rank_text::real DESC, p.id DESC'}`;
    const { rows } = await this.db.raw<{ rows: Row[] }>(sql, [...markBindings, ...pageBindings] as never);
    // Hits are readable; no hit in a conversation is told apart from a conversation the actor may not read (404)
    // by a second statement, for that case alone. (Joining the check into the statement would make Postgres rescan
    // the search and work out every step's boundary before it runs the first.)
    if (rows.length === 0 && q.conversationId !== null) {
      const { rows: readable } = await this.db.raw<{ rows: unknown[] }>(
        `SELECT 1 FROM channels c0 WHERE c0.id = ? AND c0.workspace_id = ? AND ${READABLE('c0')}`,
        [q.conversationId, q.workspaceId, q.actorId],
      );
      if (readable.length === 0) return undefined;
    }
    return rows.map((r) => ({ hit: withSave(r), marked: r.marked, key: { rank: r.rank_text, id: r.id } }));
  }
}
