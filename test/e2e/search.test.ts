import { beforeAll, describe, expect, it } from 'vitest';
import { type Account, expectError, signUp } from './support/accounts.ts';
import { type MessageBody, postText } from './support/messages.ts';
import { addMember, createWorkspace, inWorkspace, myActor } from './support/workspaces.ts';

// Message search (contract §10) through the gateway; the syntax, filters, orders and highlights in depth are
// services/messaging/test/search.int.test.ts.

interface HitBody {
  message: MessageBody;
  highlights: Array<{ start: number; end: number }>;
}

let ann: Account;
let bob: Account;
let ws: string;
let open: string;
let secret: string;

const search = (who: Account, query: string) => inWorkspace(who, ws, 'GET', `/search/messages?${query}`);

beforeAll(async () => {
  [ann, bob] = await Promise.all([signUp('search-ann'), signUp('search-bob')]);
  ws = (await createWorkspace(ann)).id;
  await addMember(ann, ws, bob);
  const make = async (body: Record<string, unknown>) =>
    ((await inWorkspace(ann, ws, 'POST', '/channels', { body })).body as { id: string }).id;
  open = await make({ name: 'open' });
  secret = await make({ name: 'secret', kind: 'private' });
  expect((await myActor(bob, ws)).id).toMatch(/^[0-9a-f-]{36}$/);
});

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
