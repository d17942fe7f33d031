import { randomUUID } from 'node:crypto';
import type { CallContext } from '@wms/kit/context';
import { createDb, type Knex } from '@wms/kit/db';
import { DomainError } from '@wms/kit/errors';
import { uuidv7 } from '@wms/kit/ids';
import { createLogger } from '@wms/kit/logger';
import { createTestDatabase } from '@wms/testkit';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations } from '../migrations/index.ts';
import { type AssetClient, Attachments } from '../src/adapters/attachments.ts';
import type { Channel } from '../src/domain/channel.ts';
import { encodeSearchCursor, type SearchFilters, type SearchKey, validateSearch } from '../src/domain/search.ts';
import type { MessagingServices } from '../src/rpc.ts';
import { type SearchHit, SearchService } from '../src/search.service.ts';
import { ChannelStore } from '../src/store/channel.store.ts';
import { MessageStore } from '../src/store/message.store.ts';
import { type SearchRow, SearchStore } from '../src/store/search.store.ts';
import { buildMessagingServices, requireSearchConfig } from '../src/wiring.ts';

// Message search (contract §10) through the messaging services, against a real Postgres: syntax, stemming, filters,
// both orders with their cursors, the access rule, edits and deletes, highlights.

const log = createLogger('messaging-search-test', 'silent');

/** A search of the store's own, with no filter, newest first. */
const NO_FILTERS: SearchFilters = {
  conversationId: null,
  authorActorId: null,
  parentMessageId: null,
  has: null,
  createdAfter: null,
  createdBefore: null,
  sort: 'newest',
};
let database: { url: string; drop(): Promise<void> };
let db: Knex;
let services: MessagingServices;
let channels: ChannelStore;

const refuse = () => Promise.reject(new Error('no peer in this test'));
// Attachments are read for hits with assets only; these tests post none.
const noAssets: AssetClient = {
  GetAssetsByIds: refuse,
  AttachAssets: refuse,
  ReleaseMessageAssets: refuse,
  DetachMessageAssets: refuse,
};

beforeAll(async () => {
  database = await createTestDatabase('messaging', migrations);
  db = createDb({ url: database.url, schema: 'messaging', log });
  channels = new ChannelStore(db);
  services = buildMessagingServices({
    db,
    workspace: { GetActorsByIds: refuse, ResolveMembership: refuse },
    assets: noAssets,
    log,
  });
});

afterAll(async () => {
  await db?.destroy();
  await database?.drop();
});

/** A call as the actor; `role` is the workspace role the gateway passes on (§9: no role reads past the wall). */
const as = (workspaceId: string, actorId: string, role?: string): CallContext => ({
  requestId: randomUUID(),
  userId: randomUUID(),
  workspaceId,
  actorId,
  role,
});

/** A conversation of `creator` and `members`; a direct one of a set that has one already is that one (§9). */
async function channel(
  workspaceId: string,
  creator: string,
  kind: 'public' | 'private' | 'direct' = 'public',
  members: string[] = [],
): Promise<Channel> {
  const participants = kind === 'direct' ? [creator, ...members].sort() : [];
  const made = await channels.insert({
    id: uuidv7(),
    workspaceId,
    kind,
    name: kind === 'direct' ? null : `s-${randomUUID().slice(0, 8)}`,
    topic: null,
    createdByActorId: creator,
    memberActorIds: [creator, ...members],
    participantActorIds: participants,
  });
  return made?.channel ?? (await channels.findDirect(workspaceId, participants, creator))!;
}

const post = async (c: Channel, author: string, bodyText: string, parentMessageId?: string) =>
  (
    await services.messages.create(as(c.workspaceId, author), {
      conversationId: c.id,
      bodyText,
      parentMessageId,
      assetIds: [],
      mentionedActorIds: [],
      loading: false,
    })
  ).message;

type Search = Parameters<MessagingServices['search']['search']>[1];
const search = (workspaceId: string, actorId: string, q: string, extra: Partial<Search> = {}) =>
  services.search.search(as(workspaceId, actorId), { q, limit: 50, ...extra });
const texts = (page: { items: SearchHit[] }) => page.items.map((h) => h.message.message.bodyText);

async function refusal(p: Promise<unknown>, label?: string): Promise<DomainError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err, label).toBeInstanceOf(DomainError);
  return err as DomainError;
}

/** A workspace with one public channel holding `bodies` in order, posted by one author. */
async function world(bodies: string[]) {
  const ws = randomUUID();
  const author = randomUUID();
  const c = await channel(ws, author);
  const posted = [];
  for (const body of bodies) posted.push(await post(c, author, body));
  return { ws, author, c, posted };
}

describe('search syntax (websearch_to_tsquery, english)', () => {
  it('needs every word, stems them, takes phrases, exclusions and OR, and finds nothing for stop words alone', async () => {
    const { ws, author } = await world([
      'We are deploying the new build tonight',
      'The deployed build broke the login page',
      'Login works again after the rollback',
      'Lunch at noon, anyone?',
      'new build: the build is new',
    ]);
    const find = async (q: string) => texts(await search(ws, author, q)).sort();
    expect(await find('deploy')).toEqual([
      'The deployed build broke the login page',
      'We are deploying the new build tonight',
    ]);
    expect(await find('deployed BUILD')).toEqual([
      'The deployed build broke the login page',
      'We are deploying the new build tonight',
    ]);
    expect(await find('"new build"')).toEqual([
      'We are deploying the new build tonight',
      'new build: the build is new',
    ]);
    expect(await find('build -login')).toEqual([
      'We are deploying the new build tonight',
      'new build: the build is new',
    ]);
    expect(await find('lunch OR rollback')).toEqual(['Login works again after the rollback', 'Lunch at noon, anyone?']);
    expect(await find('the and of')).toEqual([]);
    expect(await find('!!! ...')).toEqual([]);
  });

  it('refuses an empty or over-long query, a malformed filter and a cursor of another search, with invalid_input', async () => {
    const { ws, author } = await world(['one']);
    for (const [input, field] of [
      [{ q: '' }, 'query.q'],
      [{ q: 'x'.repeat(501) }, 'query.q'],
      [{ q: 'x', has: 'link' }, 'query.has'],
      [{ q: 'x', sort: 'oldest' }, 'query.sort'],
      [{ q: 'x', after: 'yesterday' }, 'query.after'],
      [{ q: 'x', conversationId: 'nope' }, 'query.conversation_id'],
      [{ q: 'x', cursor: 'bm9wZQ' }, 'query.cursor'],
      // The fingerprint is no secret: a client can forge a cursor of its own search, with a rank Postgres cannot read.
      ...['1e999', '1e-60', '.', '-', 'NaN', 'Infinity'].map((rank) => {
        const scope = [ws, author, 'x', validateSearch({ q: 'x', sort: 'relevance' }).filters];
        return [
          { q: 'x', sort: 'relevance', cursor: encodeSearchCursor(scope, { rank, id: randomUUID() }) },
          'query.cursor',
        ] as const;
      }),
    ] as const) {
      const err = await refusal(services.search.search(as(ws, author), { limit: 10, ...input }));
      expect(err.code, JSON.stringify(input)).toBe('invalid_input');
      expect(err.details?.map((d) => d.field)).toContain(field);
    }
  });
});

describe('binding names in text', () => {
  it('reads a query and a body that spell binding names (:actorId, ?, ::uuid) as text, never as SQL', async () => {
    const tricky = 'handover :actorId ? :workspaceId::uuid :query: done';
    const { ws, author } = await world([tricky, 'handover of something else']);
    expect(texts(await search(ws, author, ':actorId handover'))).toEqual([tricky]);
    expect(texts(await search(ws, author, '"? :workspaceId::uuid"'))).toEqual([tricky]);
    expect(texts(await search(ws, author, ':query:'))).toEqual([tricky]);
  });
});

describe('filters, orders and paging', () => {
  it('applies conversation, author, thread, has and time filters', async () => {
    const ws = randomUUID();
    const [ann, bob] = [randomUUID(), randomUUID()];
    const [a, b] = [await channel(ws, ann), await channel(ws, ann)];
    const root = await post(a, ann, 'release plan');
    const reply = await post(a, bob, 'release notes', root.id);
    const other = await post(b, bob, 'release party');
    await services.actions.react(as(ws, ann), b.id, other.id, '🎉');
    const ids = async (extra: Partial<Search>) =>
      (await search(ws, ann, 'release', extra)).items.map((h) => h.message.message.id).sort();
    expect(await ids({})).toEqual([root.id, reply.id, other.id].sort());
    expect(await ids({ conversationId: b.id })).toEqual([other.id]);
    expect(await ids({ authorActorId: bob })).toEqual([reply.id, other.id].sort());
    expect(await ids({ parentMessageId: root.id })).toEqual([reply.id]);
    expect(await ids({ has: 'reply' })).toEqual([root.id]);
    expect(await ids({ has: 'reaction' })).toEqual([other.id]);
    expect(await ids({ has: 'asset' })).toEqual([]);
    expect(await ids({ after: reply.createdAt.toISOString() })).toEqual([other.id]);
    expect(await ids({ before: reply.createdAt.toISOString() })).toEqual([root.id]);
    expect(await ids({ after: root.createdAt.toISOString(), before: other.createdAt.toISOString() })).toEqual([
      reply.id,
    ]);
  });

  it('pages newest first and by relevance to the end, each cursor continuing only its own search', async () => {
    const bodies = Array.from({ length: 7 }, (_, i) =>
      `${'alpha '.repeat(1 + (i % 3))}filler ${'x '.repeat(i)}`.trim(),
    );
    const { ws, author, posted } = await world(bodies);
    const walk = async (extra: Partial<Search>) => {
      const seen: string[] = [];
      let cursor: string | undefined;
      for (let i = 0; i < 10; i++) {
        const page = await search(ws, author, 'alpha', { ...extra, limit: 3, cursor });
        seen.push(...page.items.map((h) => h.message.message.id));
        if (page.nextCursor === null) return seen;
        cursor = page.nextCursor;
      }
      throw new Error('paging did not end');
    };
    expect(await walk({})).toEqual(posted.map((m) => m.id).reverse());
    const byRank = await walk({ sort: 'relevance' });
    expect([...byRank].sort()).toEqual(posted.map((m) => m.id).sort());
    const all = (await search(ws, author, 'alpha', { sort: 'relevance' })).items.map((h) => h.message.message.id);
    expect(byRank).toEqual(all);
    // More occurrences in a shorter text first: the three-alpha message without filler x's leads.
    expect(all[0]).toBe(posted[2]!.id);
    // A cursor is refused by another query, sort or workspace.
    const first = await search(ws, author, 'alpha', { limit: 3 });
    expect((await refusal(search(ws, author, 'filler', { limit: 3, cursor: first.nextCursor! }))).code).toBe(
      'invalid_input',
    );
    expect(
      (await refusal(search(ws, author, 'alpha', { limit: 3, sort: 'relevance', cursor: first.nextCursor! }))).code,
    ).toBe('invalid_input');
    expect((await refusal(search(randomUUID(), author, 'alpha', { limit: 3, cursor: first.nextCursor! }))).code).toBe(
      'invalid_input',
    );
  });
});

describe('the newest-first walk and the index beyond it', () => {
  it('finds the same hits, in the same order, in the newest messages walked, beyond them and across the boundary', async () => {
    const { ws, author, c } = await world(
      Array.from({ length: 30 }, (_, i) => (i % 3 === 0 ? `alpha ${i}` : `beta ${i}`)),
    );
    const other = randomUUID();
    await post(await channel(ws, other, 'private'), other, 'alpha unseen');
    const none = NO_FILTERS;
    const run = (
      store: SearchStore,
      query: string,
      limit: number,
      after: SearchKey | null,
      filters: Partial<SearchFilters>,
    ) =>
      store.search({ ...none, ...filters, workspaceId: ws, actorId: author, query, marksQuery: query, after, limit });
    // Walking 4 messages, then the index; walking more than the table holds.
    const [narrow, wide] = [new SearchStore(db, 'english', 4), new SearchStore(db, 'english', 1_000_000)];
    for (const [query, filters] of [
      ['alpha', {}],
      ['beta', {}],
      ['alpha OR beta', { conversationId: c.id }],
      ['gamma', {}],
      ['alpha', { authorActorId: other }],
    ] as const) {
      const expected = (await run(wide, query, 100, null, filters))!.map((r) => r.hit.message.id);
      for (const limit of [1, 2, 5]) {
        const seen: string[] = [];
        let after: SearchKey | null = null;
        for (;;) {
          const rows: SearchRow[] = (await run(narrow, query, limit, after, filters))!;
          seen.push(...rows.map((r) => r.hit.message.id));
          if (rows.length < limit) break;
          after = rows.at(-1)!.key;
        }
        expect(seen, `${query} by ${limit}`).toEqual(expected);
      }
    }
    expect((await run(wide, 'alpha', 100, null, {}))!).toHaveLength(10);
  });

  it('walks on while recent matches are dense, then takes the index from where the walk ended', async () => {
    // Oldest first: ten matches, seventeen others, then the three newest match.
    const { ws, author, posted } = await world(
      Array.from({ length: 30 }, (_, i) => (i < 10 || i >= 27 ? `delta ${i}` : `other ${i}`)),
    );
    const none = NO_FILTERS;
    // Walking 2 messages (both match: dense for a page of 4), then 18 more (one match), then the index below them.
    const store = new SearchStore(db, 'english', 2);
    const rows = (await store.search({
      ...none,
      workspaceId: ws,
      actorId: author,
      query: 'delta',
      marksQuery: 'delta',
      after: null,
      limit: 4,
    }))!;
    expect(rows.map((r) => r.hit.message.bodyText)).toEqual(['delta 29', 'delta 28', 'delta 27', 'delta 9']);
    expect(rows[3]!.hit.message.id).toBe(posted[9]!.id);
  });

  it('ranks the newest matches it is allowed to, paging through them by rank', async () => {
    const { ws, author } = await world(
      Array.from({ length: 12 }, (_, i) => `${'alpha '.repeat(1 + ((i * 7) % 5))}${'x '.repeat(i % 4)}`.trim()),
    );
    const none: SearchFilters = { ...NO_FILTERS, sort: 'relevance' };
    const run = (
      store: SearchStore,
      limit: number,
      after: SearchKey | null,
      sort: SearchFilters['sort'] = 'relevance',
    ) =>
      store.search({
        ...none,
        sort,
        workspaceId: ws,
        actorId: author,
        query: 'alpha',
        marksQuery: 'alpha',
        after,
        limit,
      });
    const everything = new SearchStore(db, 'english', 1_000_000, 1_000_000);
    const newest5 = new Set((await run(everything, 5, null, 'newest'))!.map((r) => r.hit.message.id));
    const expected = (await run(everything, 100, null))!.map((r) => r.hit.message.id).filter((id) => newest5.has(id));
    expect(expected).toHaveLength(5);
    // Five ranked, the newest of them found by walking 3 messages and the rest by index.
    const five = new SearchStore(db, 'english', 3, 5);
    const seen: string[] = [];
    let after: SearchKey | null = null;
    for (;;) {
      const rows: SearchRow[] = (await run(five, 2, after))!;
      seen.push(...rows.map((r) => r.hit.message.id));
      if (rows.length < 2) break;
      after = rows.at(-1)!.key;
    }
    expect(seen).toEqual(expected);
  });
});

describe('what search shows', () => {
  it('finds only what the caller may read now: a private channel to its members, nothing of another workspace', async () => {
    const ws = randomUUID();
    const [ann, bob, cat] = [randomUUID(), randomUUID(), randomUUID()];
    const secret = await channel(ws, ann, 'private', [bob]);
    const open = await channel(ws, ann);
    await post(secret, ann, 'budget numbers');
    await post(open, ann, 'budget meeting');
    const elsewhere = await world(['budget elsewhere']);
    expect(texts(await search(ws, bob, 'budget')).sort()).toEqual(['budget meeting', 'budget numbers']);
    expect(texts(await search(ws, cat, 'budget'))).toEqual(['budget meeting']);
    expect((await refusal(search(ws, cat, 'budget', { conversationId: secret.id }))).code).toBe('not_found');
    // By relevance too (its own statement: the newest matches ranked), within a conversation or not.
    expect(texts(await search(ws, cat, 'budget', { sort: 'relevance' }))).toEqual(['budget meeting']);
    expect((await refusal(search(ws, cat, 'budget', { conversationId: secret.id, sort: 'relevance' }))).code).toBe(
      'not_found',
    );
    expect(texts(await search(ws, bob, 'budget', { conversationId: secret.id, sort: 'relevance' }))).toEqual([
      'budget numbers',
    ]);
    expect(texts(await search(elsewhere.ws, elsewhere.author, 'budget'))).toEqual(['budget elsewhere']);
    // Leaving takes it away at the next search.
    await channels.removeMember(ws, secret.id, bob);
    expect(texts(await search(ws, bob, 'budget'))).toEqual(['budget meeting']);
  });

  it('finds every match the caller may read and nothing else, for random public, private and direct conversations and messages (property)', async () => {
    const vocabulary = ['apple', 'banana', 'cherry'];
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            kind: fc.constantFrom('public' as const, 'private' as const, 'direct' as const),
            members: fc.subarray([0, 1, 2]),
          }),
          { minLength: 1, maxLength: 4 },
        ),
        fc.array(fc.record({ channel: fc.nat(), author: fc.nat(2), word: fc.constantFrom(...vocabulary) }), {
          minLength: 1,
          maxLength: 12,
        }),
        fc.constantFrom(...vocabulary),
        async (shapes, posts, word) => {
          const ws = randomUUID();
          const actors = [randomUUID(), randomUUID(), randomUUID()];
          const creator = randomUUID();
          const made: Array<{ shape: (typeof shapes)[number]; channel: Channel }> = [];
          for (const shape of shapes)
            made.push({
              shape,
              channel: await channel(
                ws,
                creator,
                shape.kind,
                shape.members.map((i) => actors[i]!),
              ),
            });
          const readable = (actor: number, i: number) =>
            made[i]!.shape.kind === 'public' || made[i]!.shape.members.includes(actor);
          const expected: Array<{ id: string; channel: number }> = [];
          for (const p of posts) {
            const i = p.channel % made.length;
            // A post needs a reader: the channel's creator posts where the drawn author may not.
            const author = readable(p.author, i) ? actors[p.author]! : creator;
            const message = await post(made[i]!.channel, author, `${p.word} pie`);
            if (p.word === word) expected.push({ id: message.id, channel: i });
          }
          for (let a = 0; a < actors.length; a++) {
            const found = (await search(ws, actors[a]!, word)).items.map((h) => h.message.message.id).sort();
            expect(found).toEqual(
              expected
                .filter((m) => readable(a, m.channel))
                .map((m) => m.id)
                .sort(),
            );
          }
        },
      ),
      { numRuns: 20 },
    );
  });

  it("shows each hit with the caller's own bookmark alone, in both orders", async () => {
    const { ws, author, posted } = await world(['kept note', 'other note']);
    const saver = randomUUID();
    await db('saved_messages').insert({ actor_id: saver, message_id: posted[0]!.id, workspace_id: ws });
    const marks = async (actorId: string, sort: 'newest' | 'relevance') =>
      (await search(ws, actorId, 'note', { sort })).items
        .map((h) => [h.message.message.bodyText, h.message.savedAt !== null])
        .sort();
    for (const sort of ['newest', 'relevance'] as const) {
      expect(await marks(saver, sort)).toEqual([
        ['kept note', true],
        ['other note', false],
      ]);
      expect(await marks(author, sort)).toEqual([
        ['kept note', false],
        ['other note', false],
      ]);
    }
  });

  it('reflects an edit and a delete in the very next search, and never finds a deleted message', async () => {
    const { ws, author, c, posted } = await world(['orange juice']);
    await services.messages.edit(as(ws, author), c.id, posted[0]!.id, 'apple juice');
    expect(texts(await search(ws, author, 'orange'))).toEqual([]);
    expect(texts(await search(ws, author, 'apple'))).toEqual(['apple juice']);
    await services.messages.delete(as(ws, author), c.id, posted[0]!.id);
    expect(texts(await search(ws, author, 'juice'))).toEqual([]);
  });

  it('fills in the vectors of messages written before search existed, once, beside later writes', async () => {
    const { ws, author, posted } = await world(['legacy message one', 'legacy message two']);
    await db('messages')
      .whereIn(
        'id',
        posted.map((m) => m.id),
      )
      .update({ search: null });
    expect(texts(await search(ws, author, 'legacy'))).toEqual([]);
    // Two replicas' sweeps at once, and a message of another workspace in the same batch.
    const other = await world(['legacy elsewhere']);
    await db('messages').where({ id: other.posted[0]!.id }).update({ search: null });
    const store = new MessageStore(db);
    const sweep = async () => {
      let filled = 0;
      for (let n = await store.indexForSearch(2); n > 0; n = await store.indexForSearch(2)) filled += n;
      return filled;
    };
    const [a, b] = await Promise.all([sweep(), sweep()]);
    expect(a + b).toBeGreaterThanOrEqual(3);
    expect(texts(await search(ws, author, 'legacy')).sort()).toEqual(['legacy message one', 'legacy message two']);
    expect(texts(await search(other.ws, other.author, 'legacy'))).toEqual(['legacy elsewhere']);
  });

  it('marks each occurrence of each matched word as written, in UTF-16 offsets, with emoji, CJK and combining marks around', async () => {
    const body = '🚀 Deploying é\u0301t\u00e9 東京 deployed, not the rocket. DEPLOY!';
    const { ws, author } = await world([body]);
    const [hit] = (await search(ws, author, 'deploy OR -rocket')).items;
    expect(hit!.highlights.map((h) => body.slice(h.start, h.end))).toEqual(['Deploying', 'deployed', 'DEPLOY']);
    // A phrase's words are marked each on its own, wherever they stand ("not" and "the" are stop words, never marked).
    const [phrase] = (await search(ws, author, '"not the rocket deploy"')).items;
    expect(phrase!.highlights.map((h) => body.slice(h.start, h.end))).toEqual([
      'Deploying',
      'deployed',
      'rocket',
      'DEPLOY',
    ]);
  });

  it('marks exactly the words of a random text that the query matched (property)', async () => {
    const ws = randomUUID();
    const author = randomUUID();
    const c = await channel(ws, author);
    const words = ['deploy', 'deployed', 'rocket', '東京', 'café', 'naïve', '🚀', 'e\u0301te\u0301', 'plan', 'the'];
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom(...words), { minLength: 1, maxLength: 12 }),
        fc.array(fc.constantFrom(' ', '  ', ', ', '\n', '… '), { minLength: 12, maxLength: 12 }),
        async (picked, gaps) => {
          const body = `${picked.map((w, i) => w + gaps[i]).join('')}deploy`;
          const message = await post(c, author, body);
          const page = await search(ws, author, 'deploy', { conversationId: c.id, limit: 1 });
          const hit = page.items.find((h) => h.message.message.id === message.id)!;
          const marked = hit.highlights.map((h) => body.slice(h.start, h.end).toLowerCase());
          expect(marked.every((w) => w === 'deploy' || w === 'deployed')).toBe(true);
          expect(marked).toHaveLength(picked.filter((w) => w.startsWith('deploy')).length + 1);
          expect(hit.highlights.every((h, i) => i === 0 || h.start >= hit.highlights[i - 1]!.end)).toBe(true);
        },
      ),
      { numRuns: 25 },
    );
  });
});

describe('direct conversations', () => {
  it('finds a direct conversation for its participants alone, within it or not, in both orders; to an owner, admin or member outside it, it does not exist', async () => {
    const ws = randomUUID();
    const [ann, bob, cat] = [randomUUID(), randomUUID(), randomUUID()];
    const outsiders = [
      ['owner', randomUUID()],
      ['admin', randomUUID()],
      ['member', randomUUID()],
    ] as const;
    const pair = await channel(ws, ann, 'direct', [bob]);
    // Bob is a participant of one direct conversation and not of this one: one is no key to another.
    const aside = await channel(ws, cat, 'direct', [ann]);
    const root = await post(pair, ann, 'roadmap draft');
    await post(pair, bob, 'roadmap feedback', root.id);
    await post(aside, cat, 'roadmap aside');
    await post(await channel(ws, outsiders[0][1]), outsiders[0][1], 'roadmap public');
    const find = async (actor: string, extra: Partial<Search> = {}, role?: string) =>
      texts(await services.search.search(as(ws, actor, role), { q: 'roadmap', limit: 50, ...extra })).sort();
    const hidden = async (actor: string, conversationId: string, sort: Search['sort'], role?: string) => {
      const label = `${role ?? 'no role'}: conversation_id of a conversation it is not in, by ${sort}`;
      return (await refusal(find(actor, { conversationId, sort }, role), label)).code;
    };
    for (const sort of ['newest', 'relevance'] as const) {
      expect(await find(ann, { sort })).toEqual([
        'roadmap aside',
        'roadmap draft',
        'roadmap feedback',
        'roadmap public',
      ]);
      expect(await find(bob, { sort })).toEqual(['roadmap draft', 'roadmap feedback', 'roadmap public']);
      expect(await find(bob, { sort, conversationId: pair.id })).toEqual(['roadmap draft', 'roadmap feedback']);
      expect(await find(cat, { sort, conversationId: aside.id })).toEqual(['roadmap aside']);
      expect(await hidden(bob, aside.id, sort)).toBe('not_found');
      expect(await hidden(cat, pair.id, sort)).toBe('not_found');
      for (const [role, actor] of outsiders) {
        expect(await find(actor, { sort }, role), role).toEqual(['roadmap public']);
        expect(await hidden(actor, pair.id, sort, role), role).toBe('not_found');
        expect(await hidden(actor, aside.id, sort, role), role).toBe('not_found');
        // Its thread is none of theirs: an empty page, as for an id that names no message.
        expect(await find(actor, { sort, parentMessageId: root.id }, role), role).toEqual([]);
      }
    }
    expect(await find(ann, { parentMessageId: root.id })).toEqual(['roadmap feedback']);
  });
});

/**
 * Matches the caller may not read (a private channel, a direct conversation, another workspace, deleted messages)
 * among those it may, oldest first: the oldest and the newest, the best ranked and the worst ranked, are hidden, and
 * hidden ones run longer than a page. Each message holds `zephyr` `n` times and `pad` `p` times (more of the word
 * in a shorter text ranks higher), so hidden and readable ranks interleave, some tied.
 */
const HIDDEN_AMONG_READABLE = [
  ['secret', 1, 9],
  ['open', 2, 2],
  ['direct', 3, 1],
  ['elsewhere', 2, 1],
  ['deleted', 1, 1],
  ['secret', 3, 2],
  ['open', 1, 3],
  ['open', 3, 1],
  ['direct', 1, 4],
  ['deleted', 2, 0],
  ['open', 1, 1],
  ['elsewhere', 1, 2],
  ['open', 2, 3],
  ['direct', 2, 2],
  ['open', 4, 1],
  ['secret', 4, 0],
] as const;

/** HIDDEN_AMONG_READABLE posted for a reader who is a member of none of the workspace's conversations. */
async function hiddenAmongReadable() {
  const ws = randomUUID();
  const [reader, other, third] = [randomUUID(), randomUUID(), randomUUID()];
  const where = {
    open: await channel(ws, other),
    secret: await channel(ws, other, 'private', [third]),
    direct: await channel(ws, other, 'direct', [third]),
    // The reader's own public channel, but in another workspace: only the workspace keeps it out.
    elsewhere: await channel(randomUUID(), reader),
    deleted: await channel(ws, other),
  };
  const posted: Array<{ id: string; readable: boolean }> = [];
  for (const [at, n, p] of HIDDEN_AMONG_READABLE) {
    const c = where[at];
    const message = await post(c, at === 'elsewhere' ? reader : other, `${'zephyr '.repeat(n)}${'pad '.repeat(p)}`);
    if (at === 'deleted') await services.messages.delete(as(ws, other), c.id, message.id);
    posted.push({ id: message.id, readable: at === 'open' });
  }
  return { ws, reader, posted };
}

/** The ids in the order of §10's `relevance`, by the reference ranking: `ts_rank_cd` normalized by length, newest first on ties. */
async function byReferenceRank(ids: string[]): Promise<string[]> {
  const { rows } = await db.raw<{ rows: Array<{ id: string }> }>(
    `SELECT id FROM messages WHERE id = ANY(:ids::uuid[])
     ORDER BY ts_rank_cd(search, websearch_to_tsquery('english', 'zephyr'), 2) DESC, id DESC`,
    { ids },
  );
  return rows.map((r) => r.id);
}

/** The pages of a search followed by its next_cursor to the end, as hit ids; `max` pages at most. */
async function pagesOf(service: SearchService, ctx: CallContext, input: Search, max: number): Promise<string[][]> {
  const pages: string[][] = [];
  let cursor: string | undefined;
  do {
    const page = await service.search(ctx, { ...input, cursor });
    pages.push(page.items.map((h) => h.message.message.id));
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined && pages.length < max);
  return pages;
}

describe('paging where matches the caller may not read are', () => {
  it('pages exactly the readable matches, every page full but the last, the last with no next_cursor, in both orders', async () => {
    const { ws, reader, posted } = await hiddenAmongReadable();
    const readable = posted.filter((m) => m.readable).map((m) => m.id);
    const expected = { newest: [...readable].reverse(), relevance: await byReferenceRank(readable) };
    // The fixture does what it says: hidden matches at both ends of each order, readable ones between.
    const all = {
      newest: posted.map((m) => m.id).reverse(),
      relevance: await byReferenceRank(posted.map((m) => m.id)),
    };
    for (const sort of ['newest', 'relevance'] as const) {
      expect(all[sort].filter((id) => readable.includes(id))).toEqual(expected[sort]);
      expect([all[sort][0], all[sort].at(-1)].some((id) => readable.includes(id!))).toBe(false);
    }
    // The service as wired, and stores that walk only the newest 2 or 5 messages before they look further back by
    // index, so that hidden matches fall on each step's boundaries too.
    const attachments = new Attachments(noAssets);
    const walked = [5000, 5, 2].map((recent) => ({
      recent,
      service: new SearchService({ attachments, search: new SearchStore(db, 'english', recent) }),
    }));
    for (const { recent, service } of walked)
      for (const sort of ['newest', 'relevance'] as const)
        for (const limit of [1, 2, 4, 5, 6]) {
          const pages = await pagesOf(service, as(ws, reader), { q: 'zephyr', sort, limit }, readable.length + 2);
          const sizes = Array.from({ length: Math.ceil(readable.length / limit) }, (_, i) =>
            Math.min(limit, readable.length - i * limit),
          );
          const label = `${sort}, limit ${limit}, walking ${recent}`;
          expect(
            pages.map((p) => p.length),
            label,
          ).toEqual(sizes);
          expect(pages.flat(), label).toEqual(expected[sort]);
        }
  });
});

describe('SEARCH_TEXT_CONFIG', () => {
  it('starts with a configuration Postgres has, and names the one it does not', async () => {
    await expect(requireSearchConfig(db, 'simple')).resolves.toBeUndefined();
    await expect(requireSearchConfig(db, 'klingon')).rejects.toThrow(
      /SEARCH_TEXT_CONFIG=klingon is not a text search configuration/,
    );
  });
});
