import { createHash } from 'node:crypto';
import { ensure, invalidInput } from '@wms/kit/errors';
import { isUuid } from '@wms/kit/ids';

export const SEARCH_SORTS = ['newest', 'relevance'] as const;
export const SEARCH_HAS = ['asset', 'reaction', 'reply'] as const;

/** What narrows a search besides its query (contract §10). */
export interface SearchFilters {
  conversationId: string | null;
  authorActorId: string | null;
  /** That thread's replies. */
  parentMessageId: string | null;
  has: (typeof SEARCH_HAS)[number] | null;
  /** Exclusive bounds on `created_at`, at milliseconds. */
  createdAfter: Date | null;
  createdBefore: Date | null;
  sort: (typeof SEARCH_SORTS)[number];
}

/** A search position: the last hit's rank (its exact text, for `relevance`) and id. */
export interface SearchKey {
  rank: string;
  id: string;
}

/** One span of `body_text` a query matched: UTF-16 code unit offsets, `end` exclusive. */
export interface Highlight {
  start: number;
  end: number;
}

export interface SearchInput {
  q: string;
  conversationId?: string | undefined;
  authorActorId?: string | undefined;
  parentMessageId?: string | undefined;
  has?: string | undefined;
  after?: string | undefined;
  before?: string | undefined;
  sort?: string | undefined;
}

const timestamp = (value: string | undefined, field: string): Date | null => {
  if (value === undefined) return null;
  const at = new Date(value);
  ensure([
    field,
    /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d{1,9})?)?(Z|[+-]\d\d:\d\d)$/.test(value) && !Number.isNaN(at.getTime()),
    'must be an ISO 8601 timestamp with its offset',
  ]);
  return at;
};

/** The query and its filters as contract §10 takes them: 400 `invalid_input` naming each field that is not. */
export function validateSearch(input: SearchInput): { query: string; filters: SearchFilters } {
  const sort = input.sort ?? 'newest';
  ensure(
    ['query.q', input.q.length >= 1 && input.q.length <= 500, 'must be 1 to 500 characters'],
    ['query.conversation_id', input.conversationId === undefined || isUuid(input.conversationId), 'must be a UUID'],
    ['query.author_actor_id', input.authorActorId === undefined || isUuid(input.authorActorId), 'must be a UUID'],
    ['query.parent_message_id', input.parentMessageId === undefined || isUuid(input.parentMessageId), 'must be a UUID'],
    [
      'query.has',
      input.has === undefined || (SEARCH_HAS as readonly string[]).includes(input.has),
      'must be asset, reaction or reply',
    ],
    ['query.sort', (SEARCH_SORTS as readonly string[]).includes(sort), 'must be newest or relevance'],
  );
  const filters: SearchFilters = {
    conversationId: input.conversationId?.toLowerCase() ?? null,
    authorActorId: input.authorActorId?.toLowerCase() ?? null,
    parentMessageId: input.parentMessageId?.toLowerCase() ?? null,
    has: (input.has as SearchFilters['has']) ?? null,
    createdAfter: timestamp(input.after, 'query.after'),
    createdBefore: timestamp(input.before, 'query.before'),
    sort: sort as SearchFilters['sort'],
  };
  return { query: input.q, filters };
}

/**
 * The query without its exclusions (`-word`, `-"a phrase"`): the words whose occurrences a hit marks. A hit holds no
 * excluded word unless an `OR` let it in, and then that word did not make it a hit.
 */
export function markedWords(q: string): string {
  return (q.match(/-?"[^"]*"?|\S+/g) ?? []).filter((token) => !/^-./.test(token)).join(' ');
}

/** The cursor (opaque to clients): the search's own fingerprint, so it continues that search and no other, and the key. */
const fingerprint = (scope: unknown) =>
  createHash('sha256').update(JSON.stringify(scope)).digest('base64url').slice(0, 16);

export const encodeSearchCursor = (scope: unknown, key: SearchKey) =>
  Buffer.from(JSON.stringify([fingerprint(scope), key.rank, key.id])).toString('base64url');

/** A rank as Postgres prints a `real`, within the range it reads back (no NaN, infinity, overflow or underflow). */
function isRank(rank: string): boolean {
  const value = Number(rank);
  return (
    /^-?\d+(\.\d+)?(e[+-]?\d+)?$/i.test(rank) &&
    Number.isFinite(value) &&
    (value === 0 || (Math.abs(value) >= 1e-37 && Math.abs(value) <= 1e37))
  );
}

export function decodeSearchCursor(scope: unknown, cursor: string | undefined): SearchKey | null {
  if (cursor === undefined) return null;
  const refused = () => invalidInput([{ field: 'query.cursor', message: 'must be a next_cursor of this same search' }]);
  if (cursor.length > 512) throw refused();
  let parts: unknown;
  try {
    parts = JSON.parse(Buffer.from(cursor, 'base64url').toString());
  } catch {
    throw refused();
  }
  if (!Array.isArray(parts) || parts.length !== 3) throw refused();
  const [print, rank, id] = parts as unknown[];
  // The fingerprint is no secret (a client can make one for its own search), so the key is checked as if forged.
  if (
    print !== fingerprint(scope) ||
    typeof rank !== 'string' ||
    !isRank(rank) ||
    typeof id !== 'string' ||
    !isUuid(id)
  )
    throw refused();
  return { rank, id };
}

/**
 * The spans of the words `ts_headline` marked, as offsets into `body` (UTF-16 code units, which JavaScript strings
 * index by); none when the marked text, without its marks, is not `body` exactly.
 */
export function highlightsOf(marked: string | null, body: string, start: string, end: string): Highlight[] {
  if (marked === null) return [];
  const spans: Highlight[] = [];
  let text = '';
  let open: number | null = null;
  for (let i = 0; i < marked.length; i++) {
    const ch = marked[i]!;
    if (ch === start) open = text.length;
    else if (ch === end && open !== null) {
      if (text.length > open) spans.push({ start: open, end: text.length });
      open = null;
    } else text += ch;
  }
  return text === body ? spans : [];
}
