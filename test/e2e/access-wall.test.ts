import { randomBytes, randomUUID } from 'node:crypto';
import { waitFor } from '@wms/testkit';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Account, signUp } from './support/accounts.ts';
import { sql } from './support/db.ts';
import { api, type ApiOptions, type ApiResponse } from './support/http.ts';
import { image, multipart } from './support/images.ts';
import type { MessageBody } from './support/messages.ts';
import { type Operation, type Place, operations } from './support/operations.ts';
import { addMember, createWorkspace, inWorkspace, myActor } from './support/workspaces.ts';

// Contract §9's wall over every operation of the OpenAPI document the gateway serves. Each request place (path, query,
// body) says what its id names (`x-wms-names`); every place naming a conversation, a message (a thread is its root),
// an asset or a realtime channel is filled with a private channel's and a direct conversation's things, alone (the
// other places naming the caller's own things in a public channel) and all together, and the request is made by each
// kind of outsider: the owner, an admin, a member, and an agent with a workspace token. Each answer must be the one an
// id that never existed gets (404 per §9, or the route's refusal of that caller), must show nothing hidden, and must
// change nothing, read back as the insider and as the outsider; the insider gets the route's success. Every GET is
// also scanned, as each outsider, for the hidden conversations' ids and text. A new operation is covered as it is
// added; one whose places this test cannot fill fails it.

/** The kinds of thing the wall hides: a place naming one of them is filled with a hidden conversation's. */
const WALLED = new Set(['conversation', 'message', 'asset', 'realtime_channel']);
const wallPlaces = (op: Operation) => op.places.filter((p) => p.names !== undefined && WALLED.has(p.names));
type Kind = 'private' | 'direct';
const KINDS: Kind[] = ['private', 'direct'];

interface Caller {
  who: string;
  actor: string;
  call(method: string, path: string, options?: ApiOptions): Promise<ApiResponse>;
}
/** A conversation, a top-level message in it and an asset of it. */
interface Things {
  conv: string;
  root: string;
  asset: string;
}

const ops = await operations();
const walledOps = ops.filter((op) => op.caller !== 'none' && wallPlaces(op).length > 0);
const marker = `hidden${randomBytes(5).toString('hex')}`;
let png: Buffer;
let ws: string;
let owner: Account;
let insider: Caller;
let bystander: Caller;
/** The insider's fellow member of both hidden conversations: the member a member route names. */
let partner: Caller;
let outsiders: Caller[];
let wallAgent: string;
let publicConv: string;
/** The insider's message and asset in the public channel, for the places a scan fills. */
let visible: Things;
const hidden = {} as Record<Kind, string>;
/** Every id of a hidden conversation's things, and its text: none may reach an outsider. */
const secrets = new Set<string>([marker]);
/** Each caller's catch-up cursor from before anything hidden existed. */
const startCursor = new Map<string, string>();
/** Rows stored under an outsider that touch a hidden thing, from before any refusal. */
let rowsBefore: string[];

const sessionCaller = (who: string, account: Account, actor: string): Caller => ({
  who,
  actor,
  call: (method, path, options = {}) => inWorkspace(account, ws, method, path, options),
});

/** A caller acting with a workspace token, a fresh token every 100 uses (each allows 120 requests a minute). */
function tokenCaller(who: string, actor: string): Caller {
  let token: Promise<string> | undefined;
  let uses = 0;
  const fresh = async () => {
    const res = await inWorkspace(owner, ws, 'POST', '/workspace/tokens', { body: { actor_id: actor, name: 'wall' } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return (res.body as { token: string }).token;
  };
  return {
    who,
    actor,
    call: async (method, path, options = {}) => {
      if (!token || uses++ >= 100) {
        [token, uses] = [fresh(), 1];
        token.catch(() => (token = undefined));
      }
      return api(method, path, { ...options, token: await token });
    },
  };
}

async function ok<T = Record<string, unknown>>(res: Promise<ApiResponse>): Promise<T> {
  const answer = await res;
  expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(300);
  return answer.body as T;
}

/** A message and an asset of `conv`, made by `caller`; the asset is uploaded unless the route uploads it itself. */
async function thingsIn(caller: Caller, conv: string, pending: boolean, text: string): Promise<Things> {
  const root = (
    await ok<MessageBody>(caller.call('POST', `/conversations/${conv}/messages`, { body: { body_text: text } }))
  ).id;
  const asset = (
    await ok<{ id: string }>(
      caller.call('POST', `/conversations/${conv}/assets`, {
        body: { name: 'a.png', content_type: 'image/png', size_bytes: png.length },
      }),
    )
  ).id;
  if (!pending) await ok(caller.call('PUT', `/conversations/${conv}/assets/${asset}/content`, multipart(png)));
  return { conv, root, asset };
}

/** Values of the places that name no hidden thing, the same for every caller and variant. */
const QUERY_VALUES: Record<string, (caller: Caller) => string | undefined> = {
  '/search/messages q': () => marker,
  '/channels q': () => marker,
  '/workspace/actors q': () => marker,
  '/events after': (caller) => startCursor.get(caller.who),
};

function plainValue(op: Operation, p: Place, caller: Caller): string | undefined {
  // A member route's path names a member (of a hidden conversation, when it names one); a body's actors, an agent.
  if (p.names === 'actor') return p.in === 'path' && op.path.includes('/members/') ? partner.actor : wallAgent;
  if (p.names === 'cursor') return undefined;
  if (p.names !== undefined) return randomUUID();
  if (p.in === 'path' && p.name === 'emoji') return encodeURIComponent('👍');
  if (p.in === 'query' && p.name === 'limit') return '100';
  if (p.in === 'query') return QUERY_VALUES[`${op.path} ${p.name}`]?.(caller);
  return undefined;
}

type Value = (p: Place) => string | undefined;

/** The request `op` makes with each place's value from `value` (body places it leaves out keep the example's). */
function requestOf(op: Operation, value: Value): { method: string; path: string; options: ApiOptions } {
  const missing = (p: Place) => new Error(`${op.label}: no value for the ${p.in} place ${p.name}; teach this test`);
  let path = op.path;
  const query = new URLSearchParams();
  const body = structuredClone(op.example ?? {});
  for (const p of op.places) {
    const v = value(p);
    if (v === undefined && p.required && p.in !== 'body') throw missing(p);
    if (p.in === 'path') path = path.replace(`{${p.name}}`, v!);
    else if (p.in === 'query' && v !== undefined) query.set(p.name, v);
    else if (p.in === 'body' && p.names !== undefined) {
      if (v === undefined) delete body[p.name];
      else body[p.name] = p.many ? [v] : v;
    }
  }
  if ('client_message_id' in body) body.client_message_id = randomBytes(6).toString('hex');
  const search = query.size ? `?${query.toString()}` : '';
  if (op.upload) return { method: op.method.toUpperCase(), path: path + search, options: multipart(png) };
  const sent = op.example || Object.keys(body).length ? { body } : {};
  return { method: op.method.toUpperCase(), path: path + search, options: sent };
}

const bodyText = (res: ApiResponse) => (typeof res.body === 'string' ? res.body : JSON.stringify(res.body));
const leaked = (res: ApiResponse) => [...secrets].filter((s) => bodyText(res).includes(s));
/** An answer as the caller sees it, but for its request id: a hidden thing's must be an unknown one's, word for word. */
const answer = (res: ApiResponse): { status: number; error?: Record<string, unknown> } => {
  const { error } = (res.body ?? {}) as { error?: Record<string, unknown> };
  return error ? { status: res.status, error: { ...error, request_id: 'any' } } : { status: res.status };
};

/**
 * What a hidden conversation holds for the scans: a thread whose root mentions every outsider (allowed, and gives no
 * access), a reply, an attachment named with the marker, a reaction and the insider's bookmark.
 */
async function plant(conv: string): Promise<void> {
  const mentioned = [...outsiders, bystander].map((c) => c.actor);
  const root = await ok<MessageBody>(
    insider.call('POST', `/conversations/${conv}/messages`, {
      body: { body_text: `${marker} root`, mentioned_actor_ids: mentioned },
    }),
  );
  const reply = await ok<MessageBody>(
    partner.call('POST', `/conversations/${conv}/messages`, {
      body: { body_text: `${marker} reply`, parent_message_id: root.id },
    }),
  );
  const asset = (
    await ok<{ id: string }>(
      insider.call('POST', `/conversations/${conv}/assets`, {
        body: { name: `${marker}.png`, content_type: 'image/png', size_bytes: png.length },
      }),
    )
  ).id;
  await ok(insider.call('PUT', `/conversations/${conv}/assets/${asset}/content`, multipart(png)));
  const attached = await ok<MessageBody>(
    insider.call('POST', `/conversations/${conv}/messages`, { body: { body_text: marker, asset_ids: [asset] } }),
  );
  await ok(insider.call('PUT', `/conversations/${conv}/messages/${root.id}/saved`));
  await ok(insider.call('PUT', `/conversations/${conv}/messages/${root.id}/reactions/${encodeURIComponent('👍')}`));
  for (const id of [conv, root.id, reply.id, asset, attached.id]) secrets.add(id);
}

/**
 * The rows of the services' tables that name both an outsider and a hidden thing (the outboxes left out: the relay
 * empties them as it goes). Refused requests must add, change and remove none of them.
 */
async function outsiderRows(): Promise<string[]> {
  const tables = await sql<{ name: string }>(
    `SELECT format('%I.%I', table_schema, table_name) AS name FROM information_schema.tables
     WHERE table_schema IN ('messaging', 'asset', 'workspace') AND table_type = 'BASE TABLE' AND table_name NOT LIKE '%outbox%'`,
  );
  const whose = outsiders.map((c) => c.actor).join('|');
  const what = [...secrets].filter((s) => s !== marker).join('|');
  const rows = await Promise.all(
    tables.map(async ({ name }) =>
      (
        await sql<{ row: string }>(
          `SELECT '${name} ' || to_jsonb(t)::text AS row FROM ${name} t WHERE to_jsonb(t)::text ~ $1 AND to_jsonb(t)::text ~ $2`,
          [whose, what],
        )
      ).map((r) => r.row),
    ),
  );
  return rows.flat().sort();
}

beforeAll(async () => {
  png = await image('png', 40, 40);
  const names = ['owner', 'admin', 'member', 'insider', 'partner', 'bystander'] as const;
  const accounts = Object.fromEntries(
    await Promise.all(names.map(async (n) => [n, await signUp(`wall-${n}`)] as const)),
  ) as Record<(typeof names)[number], Account>;
  owner = accounts.owner;
  ws = (await createWorkspace(owner)).id;
  await addMember(owner, ws, accounts.admin, 'admin');
  for (const n of ['member', 'insider', 'partner', 'bystander'] as const) await addMember(owner, ws, accounts[n]);
  const caller = async (n: (typeof names)[number]) =>
    sessionCaller(n, accounts[n], (await myActor(accounts[n], ws)).id);
  const [ownerC, adminC, memberC, partnerC] = await Promise.all(
    (['owner', 'admin', 'member', 'partner'] as const).map(caller),
  );
  [insider, bystander] = await Promise.all([caller('insider'), caller('bystander')]);
  partner = partnerC!;
  const agent = async (name: string) =>
    (await ok<{ id: string }>(ownerC!.call('POST', '/workspace/actors', { body: { display_name: name } }))).id;
  wallAgent = await agent('Wall agent');
  outsiders = [ownerC!, adminC!, memberC!, tokenCaller('agent', await agent('Outsider agent'))];
  for (const c of [...outsiders, insider]) {
    const page = await ok<{ next_cursor: string }>(c.call('GET', '/events'));
    startCursor.set(c.who, page.next_cursor);
  }
  publicConv = (
    await ok<{ id: string }>(
      insider.call('POST', '/channels', { body: { name: `wall-open-${randomBytes(4).toString('hex')}` } }),
    )
  ).id;
  visible = await thingsIn(insider, publicConv, false, 'visible');
  hidden.private = (
    await ok<{ id: string }>(
      insider.call('POST', '/channels', {
        body: { name: `wall-${marker}`, kind: 'private', member_actor_ids: [partner.actor] },
      }),
    )
  ).id;
  hidden.direct = (
    await ok<{ id: string }>(insider.call('POST', '/conversations/direct', { body: { actor_ids: [partner.actor] } }))
  ).id;
  for (const kind of KINDS) await plant(hidden[kind]);
  // Events reach catch-up through the outbox relay, a moment after the posts: the scans start once they are there.
  await waitFor("the hidden messages in the insider's catch-up", async () => {
    const res = await insider.call('GET', `/events?after=${startCursor.get('insider')}&limit=100`);
    return bodyText(res).includes(`${marker} reply`);
  });
  rowsBefore = await outsiderRows();
});

/** The values a scan tries for an optional query place, one at a time. */
function scanValues(p: Place): string[] {
  if (p.names === 'conversation') return [visible.conv];
  if (p.names === 'message') return [visible.root];
  if (p.names === 'actor') return [insider.actor];
  if (Array.isArray(p.schema.enum)) return p.schema.enum as string[];
  if (p.schema.type === 'boolean') return ['true', 'false'];
  return [];
}

/**
 * The requests that scan a GET: its required places filled with visible things (an optional query place naming one
 * left out), then each optional query value alone.
 */
function scans(op: Operation, caller: Caller): Array<ReturnType<typeof requestOf>> {
  const base: Value = (p) => {
    if (p.in === 'query' && !p.required && p.names !== undefined && p.names !== 'cursor') return undefined;
    if (p.names === 'conversation') return visible.conv;
    if (p.names === 'message') return visible.root;
    if (p.names === 'asset') return visible.asset;
    return plainValue(op, p, caller);
  };
  const optional = op.places.filter((p) => p.in === 'query' && !p.required && base(p) === undefined);
  return [
    requestOf(op, base),
    ...optional.flatMap((o) => scanValues(o).map((v) => requestOf(op, (p) => (p === o ? v : base(p))))),
  ];
}

/** What §9 answers an outsider naming a hidden thing. */
function wallAnswer(op: Operation, caller: Caller): [number, string] {
  // §11: a route that takes no token refuses one before anything else.
  if (caller.who === 'agent' && op.caller === 'session') return [403, 'forbidden'];
  // §9: `POST /realtime/authorize` refuses a hidden conversation's channel.
  if (wallPlaces(op).some((p) => p.names === 'realtime_channel')) return [403, 'forbidden'];
  return [404, 'not_found'];
}

/** The member's answer: the route's success, but a conversation's tokens and a direct conversation's members are fixed. */
function memberAnswers(op: Operation, kind: Kind): number[] {
  // §11: a conversation's tokens are for its owners and admins; the insider is neither.
  if (op.path.endsWith('/tokens')) return [403];
  if (kind === 'direct' && /\/members\/\{actor_id\}$/.test(op.path) && op.method !== 'get') return [409];
  if (kind === 'direct' && op.method === 'patch' && op.path === '/channels/{channel_id}') return [400];
  return op.success;
}

/** Each walled place gets `mine` (hidden) when it is the one being tried (or all are), else the caller's `own`. */
const wallValue =
  (op: Operation, caller: Caller, at: Place | 'all', mine: Things, own: Things | undefined): Value =>
  (p) => {
    if (p.names === undefined || !WALLED.has(p.names)) return plainValue(op, p, caller);
    const things = at === 'all' || at === p ? mine : own!;
    if (p.names === 'realtime_channel') return `private-conversation-${things.conv}`;
    return { conversation: things.conv, message: things.root, asset: things.asset }[p.names];
  };

const never = (): Things => ({ conv: randomUUID(), root: randomUUID(), asset: randomUUID() });

/** One outsider's tries of `op`: every walled place hidden, then each alone; each answered as an id that never was. */
async function refusals(op: Operation, caller: Caller, mine: Things, own: Things | undefined): Promise<void> {
  for (const at of ['all' as const, ...(own ? wallPlaces(op) : [])]) {
    const req = requestOf(op, wallValue(op, caller, at, mine, own));
    const res = await caller.call(req.method, req.path, req.options);
    const nothing = requestOf(op, wallValue(op, caller, at, never(), own));
    const baseline = await caller.call(nothing.method, nothing.path, nothing.options);
    const where = `${caller.who}, ${at === 'all' ? 'every place' : `${at.in} ${at.name}`} hidden: ${res.status} ${bodyText(res)}`;
    expect(answer(res), where).toEqual(answer(baseline));
    expect(leaked(res), where).toEqual([]);
    if (at === 'all') expect([res.status, answer(res).error?.code], where).toEqual(wallAnswer(op, caller));
  }
}

/**
 * What the refusals could have changed: the hidden things as the insider reads them, and each outsider's own. Each
 * caller reads one path at a time (the callers side by side), so the check is no burst of its own.
 */
async function views(mine: Things, own: Map<string, Things | undefined>): Promise<unknown> {
  const reads = async (c: Caller, paths: string[]) => {
    const seen: unknown[] = [];
    for (const path of paths) {
      const res = await c.call('GET', path);
      const body = res.body as Record<string, unknown>;
      seen.push(
        res.status !== 200 ? res.status : 'url' in body ? { ...body, url: 'signed', expires_at: 'later' } : body,
      );
    }
    return seen;
  };
  const { conv, root, asset } = mine;
  const insiderView = reads(insider, [
    `/channels/${conv}`,
    `/channels/${conv}/members`,
    `/conversations/${conv}/messages`,
    `/conversations/${conv}/messages/${root}`,
    `/conversations/${conv}/messages?parent_message_id=${root}`,
    `/conversations/${conv}/assets/${asset}/download`,
    `/conversations/${conv}/read-state`,
    `/threads/${root}/read-state`,
    '/saved-messages',
  ]);
  const tokens = ok<Array<{ conversation_id: string | null }>>(outsiders[0]!.call('GET', '/workspace/tokens')).then(
    (all) => all.filter((t) => t.conversation_id === conv),
  );
  const outsiderViews = outsiders.map((c) => {
    const t = own.get(c.who);
    const paths = ['/saved-messages', '/threads?following=true'];
    if (t) paths.push(`/conversations/${t.conv}/messages`, `/conversations/${t.conv}/messages/${t.root}`);
    if (t) paths.push(`/conversations/${t.conv}/read-state`, `/threads/${t.root}/read-state`);
    return reads(c, paths);
  });
  return Promise.all([insiderView, tokens, ...outsiderViews]);
}

/** An outsider's own state in the private channel once let in: the same as a bystander's who never tried anything. */
async function ownState(c: Caller): Promise<unknown> {
  const conv = hidden.private;
  const read = await ok<Record<string, unknown>>(c.call('GET', `/conversations/${conv}/read-state`));
  const threads = await ok<{ items: Array<Record<string, unknown>> }>(
    c.call('GET', '/threads?following=false&limit=100'),
  );
  const saved = await ok<{ items: MessageBody[] }>(c.call('GET', '/saved-messages?limit=100'));
  const pick = (o: Record<string, unknown>, ...keys: string[]) => Object.fromEntries(keys.map((k) => [k, o[k]]));
  return {
    read: pick(read, 'last_read_message_id', 'unread_count', 'mention_count'),
    threads: threads.items
      .filter((t) => t.conversation_id === conv)
      .map((t) => pick(t, 'id', 'following', 'last_read_message_id', 'unread_count', 'mention_count')),
    saved: saved.items.filter((m) => m.conversation_id === conv).map((m) => m.id),
  };
}

describe('the access wall of private and direct conversations, over every operation of the OpenAPI document', () => {
  it('knows every place of every operation, and no operation without a caller names a hidden thing', () => {
    // Invitations have a wall of their own (the invitee's verified address, or the workspace's owners and admins):
    // invitations.test.ts answers someone else's as an unknown one.
    const known = new Set([...WALLED, 'actor', 'cursor', 'workspace_user', 'token', 'avatar', 'invitation']);
    const unknown = ops.flatMap((op) => op.places.filter((p) => p.names && !known.has(p.names)));
    expect(unknown, 'an id naming a kind this test does not know: teach it').toEqual([]);
    // A query place naming nothing must be one whose values the test knows, or tries one by one: a plain string it
    // cannot fill (an id under a name without x-wms-names) would never be called with a hidden thing.
    const knownValues = (op: Operation, p: Place) =>
      p.in !== 'query' ||
      op.caller === 'none' ||
      p.names !== undefined ||
      // Paging from the start, and the bounds of search's time window.
      ['limit', 'cursor'].includes(p.name) ||
      (op.path === '/search/messages' && ['after', 'before'].includes(p.name)) ||
      QUERY_VALUES[`${op.path} ${p.name}`] !== undefined ||
      scanValues(p).length > 0;
    const unplaced = ops.flatMap((op) =>
      op.places.filter((p) => !knownValues(op, p)).map((p) => `${op.label} ${p.name}`),
    );
    expect(unplaced, 'a query place this test cannot fill: teach it').toEqual([]);
    expect(ops.filter((op) => op.caller === 'none' && wallPlaces(op).length > 0).map((op) => op.label)).toEqual([]);
    expect(walledOps.length).toBeGreaterThan(30);
    expect(walledOps.map((op) => op.label)).toEqual(
      expect.arrayContaining([
        'GET /search/messages',
        'POST /realtime/authorize',
        'DELETE /channels/{channel_id}/members/{actor_id}',
      ]),
    );
  });

  // The scans can fail: the insider finds the hidden things through each of these.
  const showsTheInsider = [
    'GET /channels',
    'GET /conversations',
    'GET /threads',
    'GET /saved-messages',
    'GET /search/messages',
    'GET /events',
  ];
  const gets = ops.filter((op) => op.method === 'get' && op.caller !== 'none');
  it('scans every GET with a caller, the listings among them', () => {
    expect(gets.map((op) => op.label)).toEqual(expect.arrayContaining(showsTheInsider));
  });

  for (const op of gets) {
    it(`scan: ${op.label} shows an outsider no id or text of a hidden conversation`, async () => {
      let insiderSaw = false;
      for (const c of [insider, ...outsiders]) {
        for (const req of scans(op, c)) {
          const res = await c.call(req.method, req.path, req.options);
          const where = `${c.who}: ${req.method} ${req.path} answered ${res.status} ${bodyText(res).slice(0, 300)}`;
          if (c === insider) insiderSaw ||= leaked(res).length > 0;
          else expect(leaked(res), where).toEqual([]);
        }
      }
      if (showsTheInsider.includes(op.label)) expect(insiderSaw, 'the insider finds the hidden things here').toBe(true);
    });
  }

  for (const kind of KINDS) {
    for (const op of walledOps) {
      it(`${kind}: ${op.label} answers outsiders as if the hidden thing never existed, changing nothing; the member gets its success`, async () => {
        const mixed = wallPlaces(op).length > 1;
        const mine = await thingsIn(insider, hidden[kind], op.upload, `root for ${op.label}`);
        secrets.add(mine.root).add(mine.asset);
        const own = new Map(
          await Promise.all(
            outsiders.map(
              async (c) =>
                [c.who, mixed ? await thingsIn(c, publicConv, op.upload, `own ${op.label}`) : undefined] as const,
            ),
          ),
        );
        const before = await views(mine, own);
        await Promise.all(outsiders.map((c) => refusals(op, c, mine, own.get(c.who))));
        expect(await views(mine, own), 'a refused request must change nothing').toEqual(before);
        const req = requestOf(op, wallValue(op, insider, 'all', mine, undefined));
        const res = await insider.call(req.method, req.path, req.options);
        expect(memberAnswers(op, kind), `${res.status} ${bodyText(res)}`).toContain(res.status);
      });
    }
  }

  it('stored nothing under an outsider: read back in the database, and as each outsider once let into the private channel', async () => {
    expect(await outsiderRows(), 'rows naming an outsider and a hidden thing').toEqual(rowsBefore);
    const tokens = await ok<Array<{ conversation_id: string | null }>>(outsiders[0]!.call('GET', '/workspace/tokens'));
    expect(tokens.filter((t) => KINDS.some((k) => hidden[k] === t.conversation_id))).toEqual([]);
    for (const kind of KINDS) {
      const members = await ok<{ items: Array<{ actor_id: string }> }>(
        insider.call('GET', `/channels/${hidden[kind]}/members`),
      );
      const ids = members.items.map((m) => m.actor_id);
      expect(
        outsiders.filter((c) => ids.includes(c.actor)).map((c) => c.who),
        kind,
      ).toEqual([]);
    }
    for (const c of [...outsiders, bystander])
      await ok(insider.call('PUT', `/channels/${hidden.private}/members/${c.actor}`));
    const expected = await ownState(bystander);
    for (const c of outsiders) expect(await ownState(c), c.who).toEqual(expected);
  });
});
