import { type Knex, prepared, sqlInteger } from '@wms/kit/db';
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

/**
 * The query and the workspace as a statement reads them. `PLANNED`: written where they are used, so that a statement
 * planned for its values reads their selectivity from the columns' statistics (the index step needs it). `CACHED`: read
 * from a CTE (`PARAMS`), so that the planner estimates them alike whatever their values, and a prepared statement
 * keeps one generic plan (which also does not parse the query for every row it walks).
 */
interface Values {
  query: string;
  workspace: string;
}
const QUERY = 'websearch_to_tsquery(:searchConfig::regconfig, :query::text)';
const PLANNED: Values = { query: QUERY, workspace: ':workspaceId' };
const CACHED: Values = { query: '(SELECT tsq FROM params)', workspace: '(SELECT workspace_id FROM params)' };
const PARAMS = `params AS MATERIALIZED (SELECT ${QUERY} AS tsq, :workspaceId::uuid AS workspace_id)`;
const RANK = (v: Values) => `ts_rank_cd(m.search, ${v.query}, 2)`;

/**
 * What makes a messages row `m` a hit, after its FROM: the query and the workspace (`v`), the access rule and every
 * filter. Binds `:workspaceId`, `:searchConfig`, `:query`, `:actorId` (the caller's, for `READABLE`) and the filters'
 * own (`:conversationId`, `:authorActorId`, `:parentMessageId`, `:createdAfter`, `:createdBefore`).
 */
const MATCHES = (q: SearchFilters, v: Values): string => {
  const where = [`m.workspace_id = ${v.workspace}`, `m.search @@ ${v.query}`, 'm.deleted_at IS NULL', READABLE('c')];
  if (q.conversationId !== null) where.push('m.conversation_id = :conversationId');
  if (q.authorActorId !== null) where.push('m.author_actor_id = :authorActorId');
  if (q.parentMessageId !== null) where.push('m.parent_message_id = :parentMessageId');
  if (q.has === 'asset') where.push("m.asset_ids <> '{}'");
  if (q.has === 'reaction') where.push("m.reactions <> '[]'::jsonb");
  if (q.has === 'reply') where.push('m.reply_count > 0');
  // The API shows milliseconds: the bounds compare what it shows.
  if (q.createdAfter !== null) where.push("date_trunc('milliseconds', m.created_at) > :createdAfter");
  if (q.createdBefore !== null) where.push("date_trunc('milliseconds', m.created_at) < :createdBefore");
  return `JOIN channels c ON c.workspace_id = m.workspace_id AND c.id = m.conversation_id WHERE ${where.join(' AND ')}`;
};

/**
 * Message search (contract §10): a statement applies the query, the access rule, every filter, the order and the
 * cursor; the text of each hit on the page comes back with its matched words marked (`ts_headline`, run for the page
 * alone). Newest first, the walk through the newest messages (steps 1 and 2 of `walkSteps`) is a prepared statement
 * whose plan is made once per connection, and the index step a second statement planned for the query's words, run
 * only when the walk did not fill the page; by relevance, one statement takes every step. A search within a
 * conversation that finds nothing takes one more, to tell whether it may be read. Statements bind by name (`:name`,
 * see `bindings`), as the shared fragments (`READABLE`, `SAVED_JOIN`) do.
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
    const rows = q.sort === 'newest' ? await this.newestPage(q) : await this.rankedPage(q);
    // Hits are readable; no hit in a conversation is told apart from a conversation the actor may not read (404)
    // by another statement, for that case alone. (Joining the check into the search would make Postgres rescan
    // the search and work out every step's boundary before it runs the first.)
    if (rows.length === 0 && q.conversationId !== null && !(await this.readable(q, q.conversationId))) return undefined;
    return rows.map((r) => ({ hit: withSave(r), marked: r.marked, key: { rank: r.rank_text, id: r.id } }));
  }

  /**
   * Newest first: the walk (steps 1 and 2), prepared, with the query computed once (its generic plan walks as a plan
   * made for the words would); then, when it did not fill the page, step 3 below what it walked, planned for the words
   * (the index for a rare one). The walk's rows tell whether step 1 found matches dense enough for step 2, and its
   * oldest match.
   */
  private async newestPage(q: SearchQuery): Promise<Row[]> {
    const walk = this.walkSteps(CACHED, MATCHES(q, CACHED), q.after !== null, q.limit);
    const walked = await prepared(
      this.db.raw<{ rows: Array<Row & { dense: boolean; last_hit: string | null }> }>(
        `WITH ${PARAMS}, ${walk.first}
         ${this.page(q, `${walk.steps} LIMIT ${sqlInteger(q.limit)}`, CACHED, `${walk.dense} AS dense, ${walk.lastHit} AS last_hit`)}`,
        this.bindings(q),
      ),
    );
    const found = walked.rows;
    if (found.length >= q.limit) return found;
    // Below the oldest match of step 1 (every match above it was found; none found, below the cursor alone) or,
    // after step 2, below the messages it walked; nothing, when step 2 walked to the oldest message.
    const [dense, lastHit] = found.length === 0 ? [false, null] : [found[0]!.dense, found[0]!.last_hit];
    const below = dense ? `m.id < ${this.walkedTo(':lastHit')}` : lastHit === null ? 'true' : 'm.id < :lastHit';
    const { rows } = await this.db.raw<{ rows: Row[] }>(
      this.page(q, this.indexStep(MATCHES(q, PLANNED), q.after !== null, below, ':remaining'), PLANNED),
      { ...this.bindings(q), lastHit, remaining: q.limit - found.length },
    );
    return [...found, ...rows];
  }

  /**
   * By relevance, in one statement: the newest `ranked` matches (every step), ranked, after `:afterRank` and
   * `:afterId` when paging. Not every match is ranked: no index orders by rank, and ranking the hundreds of thousands
   * of messages that hold a common word would take seconds.
   */
  private async rankedPage(q: SearchQuery): Promise<Row[]> {
    const walk = this.walkSteps(PLANNED, MATCHES(q, PLANNED), false, this.ranked);
    const unwalked = `CASE WHEN ${walk.dense} THEN m.id < ${this.walkedTo(walk.lastHit)} ELSE ${walk.lastHit} IS NULL OR m.id < ${walk.lastHit} END`;
    const candidates = `WITH ${walk.first} ${walk.steps} UNION ALL ${this.indexStep(MATCHES(q, PLANNED), false, unwalked, ':candidates')} LIMIT :candidates`;
    const after = q.after === null ? '' : `WHERE (${RANK(PLANNED)}, m.id) < (:afterRank::real, :afterId::uuid)`;
    const hits = `SELECT m.id FROM (${candidates}) h JOIN messages m ON m.workspace_id = :workspaceId AND m.id = h.id ${after}
      ORDER BY ${RANK(PLANNED)} DESC, m.id DESC LIMIT :limit`;
    const { rows } = await this.db.raw<{ rows: Row[] }>(this.page(q, hits, PLANNED), this.bindings(q));
    return rows;
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
      // How many of the newest matches relevance ranks.
      candidates: this.ranked,
      limit: q.limit,
      markStart: MARK_START,
      markEnd: MARK_END,
      markOptions: `HighlightAll=true, StartSel=${MARK_START}, StopSel=${MARK_END}`,
    };
  }

  /** The page of the hits (ids, in `hits`), each read with the caller's bookmark, its text marked; `more`: columns. */
  private page(q: SearchQuery, hits: string, v: Values, more?: string): string {
    const page = `SELECT ${MESSAGE_COLUMNS('m')}, s.saved_at AS caller_saved_at, ${RANK(v)}::text AS rank_text
      FROM (${hits}) h JOIN messages m ON m.workspace_id = :workspaceId AND m.id = h.id ${SAVED_JOIN}`;
    const marked = `CASE WHEN strpos(p.body_text, :markStart) = 0 AND strpos(p.body_text, :markEnd) = 0
      THEN ts_headline(:searchConfig::regconfig, p.body_text, websearch_to_tsquery(:searchConfig::regconfig, :marksQuery::text), :markOptions) END AS marked`;
    return `SELECT p.*, ${marked}${more === undefined ? '' : `, ${more}`} FROM (${page}) p
      ORDER BY ${q.sort === 'newest' ? 'p.id DESC' : 'p.rank_text::real DESC, p.id DESC'}`;
  }

  /**
   * Steps 1 and 2 of finding the newest `limit` matches, below `:afterId` when `below`; each stops once they are found:
   * 1. The newest `recent` messages of the workspace are walked (its primary key's range): what recent messages hold is found there,
   *    whatever the planner thinks of its frequency (it takes a phrase's words as independent, so a common phrase
   *    looks rare to it).
   * 2. When they held a tenth of `limit` or more, matches are likely common enough to fill it by walking on, below the
   *    oldest match found, up to 9 × `recent` more.
   * `first` is the CTE of step 1's matches, `steps` the two as one query of ids, newest first; `dense` and `lastHit`
   * (step 1's oldest match) are expressions over `first`.
   */
  private walkSteps(v: Values, matches: string, below: boolean, limit: number) {
    const cursor = below ? 'AND w.id < :afterId' : '';
    const walk = (rows: number, from = '') =>
      `SELECT w.* FROM messages w WHERE w.workspace_id = ${v.workspace} ${cursor} ${from} ORDER BY w.id DESC LIMIT ${rows}`;
    const lastHit = '(SELECT id FROM first ORDER BY id LIMIT 1)';
    const dense = `((SELECT count(*) FROM first) >= ${Math.ceil(limit / 10)})`;
    return {
      first: `first AS MATERIALIZED (SELECT m.id FROM (${walk(this.recent)}) m ${matches} ORDER BY m.id DESC LIMIT ${sqlInteger(limit)})`,
      steps: `(SELECT id FROM first ORDER BY id DESC)
        UNION ALL
        (SELECT m.id FROM (${walk(9 * this.recent, `AND w.id < ${lastHit}`)}) m ${matches} AND ${dense} ORDER BY m.id DESC LIMIT ${sqlInteger(limit)})`,
      dense,
      lastHit,
    };
  }

  /** The oldest of the 9 × `recent` messages step 2 walks below `lastHit` (null when it walked to the oldest). */
  private walkedTo(lastHit: string): string {
    return `(SELECT id FROM messages WHERE workspace_id = :workspaceId AND id < ${lastHit} ORDER BY id DESC OFFSET ${9 * this.recent - 1} LIMIT 1)`;
  }

  /**
   * Step 3: the newest `limit` matches where `unwalked` holds (below what steps 1 and 2 walked), by the plan the
   * statistics choose (the GIN index for a rare word), below `:afterId` when `below`. Steps 2 and 3 start below the
   * oldest match of step 1, not below the last message it walked, which it does not tell: the messages between the
   * two are walked again by step 2 (they match nothing), and a count of the newest `recent` would cost an index scan
   * of its own.
   */
  private indexStep(matches: string, below: boolean, unwalked: string, limit: string): string {
    return `(SELECT m.id FROM messages m ${matches} ${below ? 'AND m.id < :afterId' : ''} AND ${unwalked}
      ORDER BY m.id DESC LIMIT ${limit})`;
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
