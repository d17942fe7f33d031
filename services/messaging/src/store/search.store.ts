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

export type SearchQuery = SearchFilters & {
  workspaceId: string;
  actorId: string;
  query: string;
  marksQuery: string;
  after: SearchKey | null;
  limit: number;
};

// The query is written where it is used, not taken from a CTE: planned with its value, its selectivity is read from
// the column's statistics.
const QUERY = 'websearch_to_tsquery(:searchConfig::regconfig, :query::text)';
const RANK = `ts_rank_cd(m.search, ${QUERY}, 2)`;

/**
 * What makes a messages row `m` a hit, after its FROM: the query, the access rule and every filter. Binds
 * `:workspaceId`, `:searchConfig`, `:query`, `:actorId` (the caller's, for `READABLE`) and the filters' own
 * (`:conversationId`, `:authorActorId`, `:parentMessageId`, `:createdAfter`, `:createdBefore`).
 */
const MATCHES = (q: SearchFilters): string => {
  const where = ['m.workspace_id = :workspaceId', `m.search @@ ${QUERY}`, 'm.deleted_at IS NULL', READABLE('c')];
  if (q.conversationId !== null) where.push('m.conversation_id = :conversationId');
  if (q.authorActorId !== null) where.push('m.author_actor_id = :authorActorId');
  if (q.parentMessageId !== null) where.push('m.parent_message_id = :parentMessageId');
  if (q.has === 'asset') where.push("m.asset_ids <> '{}'");
  if (q.has === 'reaction') where.push("m.reactions <> '[]'::jsonb");
  if (q.has === 'reply') where.push('m.reply_count > 0');
  // The API shows milliseconds: the bounds compare what it shows.
  if (q.createdAfter !== null) where.push("date_trunc('milliseconds', m.created_at) > :createdAfter");
  if (q.createdBefore !== null) where.push("date_trunc('milliseconds', m.created_at) < :createdBefore");
  return `JOIN channels c ON c.id = m.conversation_id WHERE ${where.join(' AND ')}`;
};

/**
 * Message search (contract §10): one statement applies the query, the access rule, every filter, the order and the
 * cursor; the text of each hit on the page comes back with its matched words marked (`ts_headline`, run for the page
 * alone). A search within a conversation that finds nothing takes a second statement, to tell whether it may be read.
 * Statements bind by name (`:name`, see `bindings`), as the shared fragments (`READABLE`, `SAVED_JOIN`) do.
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
  async search(q: SearchQuery): Promise<SearchRow[] | undefined> {
    const { rows } = await this.db.raw<{ rows: Row[] }>(this.statement(q), this.bindings(q));
    // Hits are readable; no hit in a conversation is told apart from a conversation the actor may not read (404)
    // by a second statement, for that case alone. (Joining the check into the statement would make Postgres rescan
    // the search and work out every step's boundary before it runs the first.)
    if (rows.length === 0 && q.conversationId !== null && !(await this.readable(q, q.conversationId))) return undefined;
    return rows.map((r) => ({ hit: withSave(r), marked: r.marked, key: { rank: r.rank_text, id: r.id } }));
  }

  /** Every value the statements of `q` bind, by name; a statement binds those it names. */
  private bindings(q: SearchQuery) {
    return {
      searchConfig: this.searchConfig,
      query: q.query,
      marksQuery: q.marksQuery,
      workspaceId: q.workspaceId,
      actorId: q.actorId,
      conversationId: q.conversationId,
      authorActorId: q.authorActorId,
      parentMessageId: q.parentMessageId,
      createdAfter: q.createdAfter,
      createdBefore: q.createdBefore,
      // The cursor: the id below which `newest` looks, with the rank for `relevance`.
      afterId: q.after?.id ?? null,
      afterRank: q.after?.rank ?? null,
      // How many of the newest matches are found: the page for `newest`, those ranked for `relevance`.
      candidates: q.sort === 'newest' ? q.limit : this.ranked,
      limit: q.limit,
      markStart: MARK_START,
      markEnd: MARK_END,
      markOptions: `HighlightAll=true, StartSel=${MARK_START}, StopSel=${MARK_END}`,
    };
  }

  /** The page of hits of `q`, each read with the caller's bookmark, its text marked (for the page alone). */
  private statement(q: SearchQuery): string {
    const hits = q.sort === 'newest' ? this.newest(MATCHES(q), q.after !== null, q.limit) : this.byRank(q);
    const page = `SELECT ${MESSAGE_COLUMNS('m')}, s.saved_at AS caller_saved_at, ${RANK}::text AS rank_text
      FROM (${hits}) h JOIN messages m ON m.id = h.id ${SAVED_JOIN}`;
    const marked = `CASE WHEN strpos(p.body_text, :markStart) = 0 AND strpos(p.body_text, :markEnd) = 0
      THEN ts_headline(:searchConfig::regconfig, p.body_text, websearch_to_tsquery(:searchConfig::regconfig, :marksQuery::text), :markOptions) END AS marked`;
    return `SELECT p.*, ${marked} FROM (${page}) p ORDER BY ${q.sort === 'newest' ? 'p.id DESC' : 'p.rank_text::real DESC, p.id DESC'}`;
  }

  /**
   * The ids of the newest `limit` matches (bound as `:candidates`), newest first, below `:afterId` when `below`, in
   * up to three steps that stop once they are found:
   * 1. The newest `recent` messages (of every workspace) are walked: what recent messages hold is found there,
   *    whatever the planner thinks of its frequency (it takes a phrase's words as independent, so a common phrase
   *    looks rare to it).
   * 2. When they held a tenth of `limit` or more, matches are likely common enough to fill it by walking on, below the
   *    oldest match found, up to 9 × `recent` more.
   * 3. The rest by the plan the statistics choose (the GIN index for a rare word): below the oldest match found (every
   *    match above it was found; none, when there was none) or, after step 2, below what it walked.
   * Steps 2 and 3 start below the oldest match of step 1, not below the last message it walked, which it does not
   * tell: the messages between the two are walked again by step 2 (they match nothing), and a count of the newest
   * `recent` would cost an index scan of its own.
   */
  private newest(matches: string, below: boolean, limit: number): string {
    const cursor = below ? 'AND id < :afterId' : '';
    const walk = (rows: number, from = '') =>
      `SELECT * FROM messages WHERE true ${cursor} ${from} ORDER BY id DESC LIMIT ${rows}`;
    const lastHit = '(SELECT id FROM first ORDER BY id LIMIT 1)';
    // The oldest of the `rows` walked below the oldest match of step 1.
    const walkedTo = (rows: number) =>
      `(SELECT id FROM messages WHERE id < ${lastHit} ORDER BY id DESC OFFSET ${rows - 1} LIMIT 1)`;
    const dense = `(SELECT count(*) FROM first) >= ${Math.ceil(limit / 10)}`;
    const unwalked = `CASE WHEN ${dense} THEN m.id < ${walkedTo(9 * this.recent)} ELSE ${lastHit} IS NULL OR m.id < ${lastHit} END`;
    return `WITH first AS MATERIALIZED (SELECT m.id FROM (${walk(this.recent)}) m ${matches} ORDER BY m.id DESC LIMIT :candidates)
      (SELECT id FROM first ORDER BY id DESC)
      UNION ALL
      (SELECT m.id FROM (${walk(9 * this.recent, `AND id < ${lastHit}`)}) m ${matches} AND ${dense} ORDER BY m.id DESC LIMIT :candidates)
      UNION ALL
      (SELECT m.id FROM messages m ${matches} ${below ? 'AND m.id < :afterId' : ''} AND ${unwalked}
       ORDER BY m.id DESC LIMIT :candidates)
      LIMIT :candidates`;
  }

  /**
   * The ids of a page by rank, after `:afterRank` and `:afterId` when paging. The newest `ranked` matches are ranked,
   * not every one: no index orders by rank, and ranking the hundreds of thousands of messages that hold a common word
   * would take seconds.
   */
  private byRank(q: SearchQuery): string {
    const after = q.after === null ? '' : `WHERE (${RANK}, m.id) < (:afterRank::real, :afterId::uuid)`;
    return `SELECT m.id FROM (${this.newest(MATCHES(q), false, this.ranked)}) h JOIN messages m ON m.id = h.id ${after}
      ORDER BY ${RANK} DESC, m.id DESC LIMIT :limit`;
  }

  /** Whether the actor may read the workspace's conversation. */
  private async readable(q: { workspaceId: string; actorId: string }, conversationId: string): Promise<boolean> {
    const { rows } = await this.db.raw<{ rows: unknown[] }>(
      `SELECT 1 FROM channels c0 WHERE c0.id = :conversationId AND c0.workspace_id = :workspaceId AND ${READABLE('c0')}`,
      { conversationId, workspaceId: q.workspaceId, actorId: q.actorId },
    );
    return rows.length > 0;
  }
}
