import { beforeAll, describe, expect, it } from 'vitest';
import { type Account, expectError, signUp } from './support/accounts.ts';
import { type MessageBody, postText, walk } from './support/messages.ts';
import { addMember, createWorkspace, inWorkspace, myActor } from './support/workspaces.ts';

// Message search (contract §10) through the gateway; the syntax, filters, orders and highlights in depth are
// services/messaging/test/search.int.test.ts.

interface HitBody {
  message: MessageBody;
  highlights: Array<{ start: number; end: number }>;
}

let ann: Account;
let bob: Account;
/**
 * An admin and a member, in neither the private channel nor bob's direct conversation (ann, the owner, made the
 * private channel and is in it; she is not in bob's direct one).
 */
let cat: Account;
let eve: Account;
let ws: string;
let open: string;
let secret: string;
/** Bob's direct conversation with an agent of the workspace. */
let direct: string;

const search = (who: Account, query: string) => inWorkspace(who, ws, 'GET', `/search/messages?${query}`);

beforeAll(async () => {
  [ann, bob, cat, eve] = await Promise.all([
    signUp('search-ann'),
    signUp('search-bob'),
    signUp('search-cat'),
    signUp('search-eve'),
  ]);
  ws = (await createWorkspace(ann)).id;
  await addMember(ann, ws, bob);
  await addMember(ann, ws, cat, 'admin');
  await addMember(ann, ws, eve);
  const make = async (body: Record<string, unknown>) =>
    ((await inWorkspace(ann, ws, 'POST', '/channels', { body })).body as { id: string }).id;
  open = await make({ name: 'open' });
  secret = await make({ name: 'secret', kind: 'private' });
  expect((await myActor(bob, ws)).id).toMatch(/^[0-9a-f-]{36}$/);
  const agent = await inWorkspace(ann, ws, 'POST', '/workspace/actors', { body: { display_name: 'Search helper' } });
  expect(agent.status, JSON.stringify(agent.body)).toBe(201);
  const opened = await inWorkspace(bob, ws, 'POST', '/conversations/direct', {
    body: { actor_ids: [(agent.body as { id: string }).id] },
  });
  expect(opened.status, JSON.stringify(opened.body)).toBe(201);
  direct = (opened.body as { id: string }).id;
});

const SORTS = ['newest', 'relevance'] as const;
/** The ids of a search's hits, as `who` finds them (the status checked). */
const found = async (who: Account, query: string) => {
  const res = await search(who, query);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body as { items: HitBody[] }).items.map((h) => h.message.id);
};

describe('GET /search/messages', () => {
  it('finds what the caller may read, with highlights, and nothing of a private channel it is not in', async () => {
    const visible = await postText(ann, ws, open, 'Deploying the 🚀 tonight');
    const hidden = await postText(ann, ws, secret, 'deployed the secret thing');
    const mine = await search(ann, `q=${encodeURIComponent('deploy')}`);
    expect(mine.status, JSON.stringify(mine.body)).toBe(200);
    const hits = (mine.body as { items: HitBody[]; next_cursor: string | null }).items;
    expect(hits.map((h) => h.message.id)).toEqual([hidden.id, visible.id]);
    expect(hits[1]!.highlights).toEqual([{ start: 0, end: 9 }]);
    expect(visible.body_text.slice(0, 9)).toBe('Deploying');
    const theirs = (await search(bob, 'q=deploy')).body as { items: HitBody[] };
    expect(theirs.items.map((h) => h.message.id)).toEqual([visible.id]);
    expectError(await search(bob, `q=deploy&conversation_id=${secret}`), 404, 'not_found');
  });

  it("answers bad input with the contract's 400 and a query of stop words with an empty page", async () => {
    expectError(await search(ann, 'q='), 400, 'invalid_input');
    expectError(await search(ann, `q=${'x'.repeat(501)}`), 400, 'invalid_input');
    expectError(await search(ann, 'q=x&sort=oldest'), 400, 'invalid_input');
    expectError(await search(ann, 'q=x&after=soon'), 400, 'invalid_input');
    expectError(await search(ann, 'q=x&cursor=garbage'), 400, 'invalid_input');
    // Text Postgres cannot hold is the caller's mistake, on search and on both pickers.
    expectError(await search(ann, 'q=a%00b'), 400, 'invalid_input');
    expectError(await inWorkspace(ann, ws, 'GET', '/channels?q=a%00b'), 400, 'invalid_input');
    expectError(await inWorkspace(ann, ws, 'GET', '/workspace/actors?q=a%00b'), 400, 'invalid_input');
    const stop = await search(ann, 'q=the');
    expect(stop.status).toBe(200);
    expect(stop.body).toEqual({ items: [], next_cursor: null });
  });
});

describe('GET /search/messages over direct conversations and hidden matches', () => {
  it('finds a direct conversation for its participant alone; to the owner, an admin and a member it does not exist', async () => {
    const draft = await postText(bob, ws, direct, 'roadmap draft');
    const notes = await postText(bob, ws, direct, 'roadmap notes', { parent_message_id: draft.id });
    const shown = await postText(ann, ws, open, 'roadmap public');
    for (const sort of SORTS) {
      expect((await found(bob, `q=roadmap&sort=${sort}`)).sort()).toEqual([draft.id, notes.id, shown.id].sort());
      expect((await found(bob, `q=roadmap&sort=${sort}&conversation_id=${direct}`)).sort()).toEqual(
        [draft.id, notes.id].sort(),
      );
      for (const [role, outsider] of [
        ['owner', ann],
        ['admin', cat],
        ['member', eve],
      ] as const) {
        expect(await found(outsider, `q=roadmap&sort=${sort}`), `${role}, ${sort}`).toEqual([shown.id]);
        const refused = await search(outsider, `q=roadmap&sort=${sort}&conversation_id=${direct}`);
        expect(refused.status, `${role}, ${sort}, conversation_id: ${JSON.stringify(refused.body)}`).toBe(404);
        expectError(refused, 404, 'not_found');
      }
    }
  });

  it('pages exactly the readable matches one at a time, in both orders, when hidden ones lie between and beyond them', async () => {
    // Oldest first. Hidden from eve: the oldest and worst ranked, the newest and best ranked, one between, one deleted.
    // More of the word in a shorter text ranks higher (§10): the readable ones hold it in 2 of 3, 1 of 2, 1 of 4 words.
    await postText(bob, ws, direct, `zephyr${' pad'.repeat(9)}`);
    const half = await postText(ann, ws, open, 'zephyr pad');
    const kept = [await postText(ann, ws, secret, 'zephyr zephyr pad pad')];
    const most = await postText(ann, ws, open, 'zephyr zephyr pad');
    const gone = await postText(ann, ws, open, 'zephyr zephyr zephyr');
    expect((await inWorkspace(ann, ws, 'DELETE', `/conversations/${open}/messages/${gone.id}`)).status).toBe(204);
    const least = await postText(ann, ws, open, 'zephyr pad pad pad');
    kept.push(await postText(ann, ws, secret, 'zephyr'));
    const expected = { newest: [least.id, most.id, half.id], relevance: [most.id, half.id, least.id] };
    for (const sort of SORTS) {
      const pages = await walk<HitBody>((cursor) =>
        search(eve, `q=zephyr&sort=${sort}&limit=1${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`),
      );
      // Three pages of one: none empty, and the third ends the search although older hidden matches remain.
      expect(
        pages.map((page) => page.map((h) => h.message.id)),
        sort,
      ).toEqual(expected[sort].map((id) => [id]));
    }
    // The owner, a member of the private channel, finds its two as well; the direct conversation stays bob's.
    expect((await found(ann, 'q=zephyr&limit=100')).sort()).toEqual(
      [...kept, least, most, half].map((m) => m.id).sort(),
    );
  });
});

describe('pickers', () => {
  it('keeps the channels and actors whose name contains q, case-insensitively, those starting with it first', async () => {
    const make = (name: string, kind = 'public') => inWorkspace(ann, ws, 'POST', '/channels', { body: { name, kind } });
    for (const name of ['zeta-ops', 'ops', 'dev-ops', 'opsec']) expect((await make(name)).status).toBe(201);
    expect((await make('ops-private', 'private')).status).toBe(201);
    const names = async (who: Account, q: string) =>
      ((await inWorkspace(who, ws, 'GET', `/channels?q=${encodeURIComponent(q)}`)).body as Array<{ name: string }>).map(
        (c) => c.name,
      );
    expect(await names(ann, 'OPS')).toEqual(['ops', 'ops-private', 'opsec', 'dev-ops', 'zeta-ops']);
    expect(await names(bob, 'ops')).toEqual(['ops', 'opsec', 'dev-ops', 'zeta-ops']);
    // Literally: `%` and `_` are no wildcards.
    expect(await names(ann, '%')).toEqual([]);
    expect(await names(ann, 's_')).toEqual([]);
    expectError(await inWorkspace(ann, ws, 'GET', '/channels?q='), 400, 'invalid_input');
    expectError(await inWorkspace(ann, ws, 'GET', `/channels?q=${'x'.repeat(81)}`), 400, 'invalid_input');

    for (const display_name of ['Opsbot', 'Devops helper'])
      expect((await inWorkspace(ann, ws, 'POST', '/workspace/actors', { body: { display_name } })).status).toBe(201);
    const actors = (
      (await inWorkspace(bob, ws, 'GET', '/workspace/actors?q=OPS')).body as Array<{ display_name: string }>
    ).map((a) => a.display_name);
    expect(actors).toEqual(['Opsbot', 'Devops helper']);
    expectError(await inWorkspace(bob, ws, 'GET', '/workspace/actors?q='), 400, 'invalid_input');
  });
});
