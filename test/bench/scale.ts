import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { isDeepStrictEqual } from 'node:util';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { readBody } from '../../services/messaging/src/domain/markdown.ts';

/** Cursors kept per channel, evenly spaced through it; each request of the scale run picks one at random. */
const CURSORS = 1000;
const PAGE = 50;
const ROWS_PER_CHUNK = 5000;
/** The seeded messages are this far apart in time, the newest an hour before the seed. */
const SPACING_MS = 50;
const NEWEST_AGE_MS = 3_600_000;

/** Where the seeded messages go: a channel made through the API, and the author and workspace of the bench's own. */
export interface SeedTarget {
  workspaceId: string;
  channelId: string;
  actorId: string;
}

/** A seeded channel: how long its COPY took, and cursors spread through it that each leave a full page older. */
export interface SeededChannel {
  channelId: string;
  messages: number;
  seconds: number;
  cursors: string[];
}

/**
 * The common words of the seeded texts, most common first: each text takes 6 of them, the first ones far more often
 * (the index is the cube of a uniform draw), so a query of the first two is common, and 2 of the TAIL below. One text
 * in 100 holds the phrase SEARCH_PHRASE and one in 50,000 the rare word SEARCH_RARE.
 */
const WORDS = (
  'team meeting update release plan project review design build deploy issue fix test customer report data server ' +
  'client service network support budget launch sprint roadmap feature product market sales office travel lunch ' +
  'coffee weekend holiday schedule calendar invite agenda notes draft document contract invoice payment account ' +
  'security password login access permission database backup restore migration upgrade version branch merge commit ' +
  'pipeline monitor alert incident outage latency memory storage cluster node container image docker kubernetes helm ' +
  'metrics dashboard graph chart summary question answer idea proposal feedback approval decision priority deadline'
).split(' ');
/**
 * The long tail of a real vocabulary: 4,096 made-up words of three syllables, two of them in every text, so that each
 * is rare (0.05 %). Without it the planner would see 100 words in all, each of them common, and take any word it
 * does not know for one of 0.5 % (half the rarest it knows).
 */
const SYLLABLES = 'ka ve lo mi tu ra ne so pi du ga le fo ri zu ba'.split(' ');
const TAIL = Array.from(
  { length: 4096 },
  (_, i) => SYLLABLES[i >> 8]! + SYLLABLES[(i >> 4) & 15]! + SYLLABLES[i & 15]!,
);
export const SEARCH_COMMON: readonly [string, string] = [WORDS[0]!, WORDS[1]!];
export const SEARCH_PHRASE = 'quarterly revenue forecast';
export const SEARCH_RARE = 'zephyrine';

/** The text of seeded message `i`: the same for the same `i`, so runs search the same corpus. */
function seededText(i: number): string {
  let x = (i * 2654435761 + 1) >>> 0;
  const next = () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 4294967296;
  };
  const words = Array.from({ length: 8 }, (_, k) =>
    k < 6 ? WORDS[Math.floor(next() ** 3 * WORDS.length)]! : TAIL[Math.floor(next() * TAIL.length)]!,
  );
  if (i % 100 === 7) words.splice(3, 0, SEARCH_PHRASE);
  if (i % 50_000 === 11) words.push(SEARCH_RARE);
  return words.join(' ');
}

/**
 * A UUIDv7 of the given millisecond, as the API's ids are: the time in the first 48 bits, so ids made at increasing
 * times increase; version 7, variant 10, the rest random.
 */
function uuidv7At(ms: number, random: string): string {
  const time = ms.toString(16).padStart(12, '0');
  const variant = ((Number.parseInt(random[3]!, 16) & 0x3) | 0x8).toString(16);
  return `${time.slice(0, 8)}-${time.slice(8)}-7${random.slice(0, 3)}-${variant}${random.slice(4, 7)}-${random.slice(7, 19)}`;
}

/**
 * Writes `count` top-level messages into the channel with one COPY, oldest first, ids increasing with their
 * created_at. Straight into the table: the API at a few hundred posts a second would take an hour for a million,
 * and nothing a post does besides the row (outbox events) matters to reading pages.
 */
export async function seedChannel(pool: pg.Pool, target: SeedTarget, count: number): Promise<SeededChannel> {
  const newest = Date.now() - NEWEST_AGE_MS;
  const oldest = newest - (count - 1) * SPACING_MS;
  const firstCursor = Math.min(PAGE, count - 1);
  const step = Math.max(1, Math.floor((count - firstCursor) / CURSORS));
  const cursors: string[] = [];
  const fixed = `\t${target.workspaceId}\t${target.channelId}\t${target.actorId}\t`;

  function* chunks(): Generator<string> {
    for (let start = 0; start < count; start += ROWS_PER_CHUNK) {
      const end = Math.min(count, start + ROWS_PER_CHUNK);
      const random = randomBytes(10 * (end - start)).toString('hex');
      const lines: string[] = [];
      for (let i = start; i < end; i++) {
        const ms = oldest + i * SPACING_MS;
        const id = uuidv7At(ms, random.slice((i - start) * 20, (i - start + 1) * 20));
        if (i >= firstCursor && (i - firstCursor) % step === 0 && cursors.length < CURSORS) cursors.push(id);
        const at = new Date(ms).toISOString();
        lines.push(`${id}${fixed}${seededText(i)}\t${at}\t${at}\n`);
      }
      yield lines.join('');
    }
  }

  const started = performance.now();
  const client = await pool.connect();
  try {
    const copy = client.query(
      copyFrom(
        'COPY messaging.messages (id, workspace_id, conversation_id, author_actor_id, body_text, created_at, updated_at) FROM STDIN',
      ),
    );
    await pipeline(Readable.from(chunks()), copy);
  } finally {
    client.release();
  }
  return { channelId: target.channelId, messages: count, seconds: (performance.now() - started) / 1000, cursors };
}

/**
 * Writes the search vectors and children COPY left empty (what the service's writes keep), then sets the visibility
 * map and hint bits and the planner's statistics, as a table this size has in steady use.
 */
export async function settle(pool: pg.Pool): Promise<number> {
  const started = performance.now();
  const client = await pool.connect();
  try {
    // One statement over a million rows: faster without the GIN index, built again after.
    await client.query('SET statement_timeout = 0');
    await client.query('DROP INDEX messaging.messages_search_idx');
    // The children a post stores: a text of words without Markdown is one plain text node (checked below).
    await client.query(
      `UPDATE messaging.messages SET search = to_tsvector('english', body_text),
         children = jsonb_build_array(jsonb_build_object('type', 'text', 'text', body_text,
           'style', jsonb_build_object('bold', false, 'italic', false, 'strike', false, 'code', false)))
       WHERE search IS NULL AND deleted_at IS NULL`,
    );
    const { rows } = await client.query<{ body_text: string; children: unknown }>(
      'SELECT body_text, children FROM messaging.messages TABLESAMPLE SYSTEM (1) LIMIT 1000',
    );
    const wrong = rows.find((r) => !isDeepStrictEqual(r.children, readBody(r.body_text)));
    if (wrong)
      throw new Error(`seeded children are not what the service stores for ${JSON.stringify(wrong.body_text)}`);
    await client.query('CREATE INDEX messages_search_idx ON messaging.messages USING gin (search)');
  } finally {
    client.release();
  }
  await pool.query('VACUUM (ANALYZE) messaging.messages');
  return (performance.now() - started) / 1000;
}

/** A path of the channel's messages older than a cursor picked at random from those kept. */
export function cursorPages(channel: SeededChannel): () => string {
  return () =>
    `/conversations/${channel.channelId}/messages?limit=${PAGE}&cursor=${channel.cursors[Math.floor(Math.random() * channel.cursors.length)]!}`;
}

/** How the scale run's channels were made and read. */
export function scaleLine(small: SeededChannel, large: SeededChannel, vacuumSeconds: number): string {
  const n = (value: number) => value.toLocaleString('en-US');
  return (
    `scale run: channels of ${n(small.messages)} and ${n(large.messages)} top-level messages written with COPY in ${small.seconds.toFixed(1)} s and ` +
    `${large.seconds.toFixed(1)} s (${n(Math.round(large.messages / large.seconds))} rows/s), then VACUUM (ANALYZE) of the table in ${vacuumSeconds.toFixed(1)} s; ` +
    `each request reads the page of ${PAGE} older than a cursor picked at random from ${large.cursors.length} spread evenly through its channel`
  );
}
