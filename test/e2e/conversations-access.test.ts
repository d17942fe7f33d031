import { beforeAll, describe, expect, it } from 'vitest';
import { routeTable } from '../../gateway/src/app.ts';
import type { Route } from '../../gateway/src/routes/route.ts';
import { exampleIds } from '../../gateway/src/schemas.ts';
import { type Account, signUp } from './support/accounts.ts';
import type { ApiResponse } from './support/http.ts';
import { image, multipart } from './support/images.ts';
import type { MessageBody } from './support/messages.ts';
import { addMember, createWorkspace, inWorkspace, myActor } from './support/workspaces.ts';

// Contract §9's wall, driven by the gateway's route table (as the fuzz test is): every route whose path names a
// conversation or something inside one (a message, a thread, an asset, a member) is tried against a private channel
// and a direct conversation by three non-members (owner, admin, member of the workspace), who must get 404 and change
// nothing, and by a member, who must get the route's success. A new route with such a path is covered as it is added:
// its request is built from its path and its body's first OpenAPI example.

const routes = routeTable({
  clients: {} as never,
  metrics: {} as never,
  notReady: async () => [],
  storage: { storage: undefined, secret: '' },
});
const NAMES_A_CONVERSATION = /:(conversation_id|channel_id|message_id|thread_root_id|asset_id)\b/;
const walled = routes.filter((r) => NAMES_A_CONVERSATION.test(r.path));

type Outsider = 'owner' | 'admin' | 'member';
const outsiders: Outsider[] = ['owner', 'admin', 'member'];
type Kind = 'private' | 'direct';

const accounts = {} as Record<Outsider | 'insider' | 'partner', Account>;
let ws: string;
let png: Buffer;
const conversations = {} as Record<Kind, string>;
/** An agent of the workspace: the actor the member routes add and remove. */
let agent: string;

/** What one route's request points at: made fresh for each route, so no route sees another's changes. */
interface Things {
  conv: string;
  root: MessageBody;
  asset: string;
}

const as = (who: Account, method: string, path: string, options: Parameters<typeof inWorkspace>[4] = {}) =>
  inWorkspace(who, ws, method, path, options);

async function reserve(conv: string): Promise<string> {
  const res = await as(accounts.insider, 'POST', `/conversations/${conv}/assets`, {
    body: { name: 'a.png', content_type: 'image/png', size_bytes: png.length },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return (res.body as { id: string }).id;
}

async function things(kind: Kind, r: Route): Promise<Things> {
  const conv = conversations[kind];
  const posted = await as(accounts.insider, 'POST', `/conversations/${conv}/messages`, {
    body: { body_text: `root for ${r.method} ${r.path}` },
  });
  expect(posted.status, JSON.stringify(posted.body)).toBe(201);
  const asset = await reserve(conv);
  // The upload route takes a pending asset; every other one a ready one.
  if (!r.upload)
    expect(
      (await as(accounts.insider, 'PUT', `/conversations/${conv}/assets/${asset}/content`, multipart(png))).status,
    ).toBe(200);
  return { conv, root: posted.body as MessageBody, asset };
}

/** The request a route's path and its body's first example make, pointed at `t`. */
function requestFor(
  r: Route,
  t: Things,
): { method: string; path: string; options: () => Parameters<typeof inWorkspace>[4] } {
  const value: Record<string, string> = {
    conversation_id: t.conv,
    channel_id: t.conv,
    message_id: t.root.id,
    thread_root_id: t.root.id,
    asset_id: t.asset,
    actor_id: agent,
    emoji: encodeURIComponent('👍'),
  };
  const path = r.path.replace(/:(\w+)/g, (_, name: string) => {
    if (!(name in value))
      throw new Error(`${r.method} ${r.path}: no value for :${name}; teach this test what it names`);
    return value[name]!;
  });
  if (r.upload) return { method: r.method.toUpperCase(), path, options: () => multipart(png) };
  const example = (r.body as { meta?: () => { examples?: unknown[] } | undefined } | undefined)?.meta?.()
    ?.examples?.[0];
  if (r.body && example === undefined)
    throw new Error(`${r.method} ${r.path}: its body has no example to build a request from`);
  // The example's ids tell one story (exampleIds); here they name this route's things.
  const swap: Record<string, string> = {
    [exampleIds.channel]: t.conv,
    [exampleIds.message]: t.root.id,
    [exampleIds.asset]: t.asset,
    [exampleIds.actor]: agent,
  };
  const body =
    example === undefined
      ? undefined
      : JSON.parse(JSON.stringify(example), (_k, v: unknown) => (typeof v === 'string' && v in swap ? swap[v] : v));
  return { method: r.method.toUpperCase(), path, options: () => (body === undefined ? {} : { body }) };
}

/** The member's expected answer: the route's success, but a direct conversation's participants and name are fixed. */
function expectedForMember(r: Route, kind: Kind): number {
  // A conversation's tokens are for its owners and admins (contract §11); this member is neither.
  if (r.path.endsWith('/tokens')) return 403;
  if (kind === 'direct' && /\/members\/:actor_id$/.test(r.path) && r.method !== 'get') return 409;
  if (kind === 'direct' && r.method === 'patch' && r.path === '/channels/:channel_id') return 400;
  return r.status;
}

/** The conversation as its member reads it: what any refused request of an outsider must leave as it was. */
async function state(t: Things): Promise<unknown> {
  const read = async (path: string) => {
    const res: ApiResponse = await as(accounts.insider, 'GET', path);
    return res.status === 200 ? res.body : res.status;
  };
  return Promise.all(
    [
      `/channels/${t.conv}`,
      `/channels/${t.conv}/members`,
      `/conversations/${t.conv}/messages`,
      `/conversations/${t.conv}/messages/${t.root.id}`,
      `/conversations/${t.conv}/messages?parent_message_id=${t.root.id}`,
      `/conversations/${t.conv}/assets/${t.asset}/download`,
    ].map(read),
  ).then((all) =>
    all.map((x) => (x && typeof x === 'object' && 'url' in x ? { ...x, url: 'signed', expires_at: 'later' } : x)),
  );
}

beforeAll(async () => {
  png = await image('png', 40, 40);
  const names = ['owner', 'admin', 'member', 'insider', 'partner'] as const;
  const made = await Promise.all(names.map((n) => signUp(`wall-${n}`)));
  names.forEach((n, i) => (accounts[n] = made[i]!));
  ws = (await createWorkspace(accounts.owner)).id;
  await addMember(accounts.owner, ws, accounts.admin, 'admin');
  for (const who of [accounts.member, accounts.insider, accounts.partner]) await addMember(accounts.owner, ws, who);
  const partnerActor = (await myActor(accounts.partner, ws)).id;
  agent = (
    (await as(accounts.owner, 'POST', '/workspace/actors', { body: { display_name: 'Wall agent' } })).body as {
      id: string;
    }
  ).id;
  const priv = await as(accounts.insider, 'POST', '/channels', {
    body: { name: `wall-${Date.now()}`, kind: 'private', member_actor_ids: [partnerActor] },
  });
  expect(priv.status, JSON.stringify(priv.body)).toBe(201);
  conversations.private = (priv.body as { id: string }).id;
  const direct = await as(accounts.insider, 'POST', '/conversations/direct', { body: { actor_ids: [partnerActor] } });
  expect(direct.status, JSON.stringify(direct.body)).toBe(201);
  conversations.direct = (direct.body as { id: string }).id;
});

describe('the access wall of private and direct conversations, over the whole route table', () => {
  it('covers every route that names a conversation or something in one', () => {
    expect(walled.length).toBeGreaterThan(25);
    expect(walled.map((r) => `${r.method} ${r.path}`)).toContain('delete /channels/:channel_id/members/:actor_id');
  });

  for (const kind of ['private', 'direct'] as const) {
    for (const r of walled) {
      it(`${kind}: ${r.method.toUpperCase()} ${r.path} is 404 to non-members (owner, admin, member) and changes nothing; the route's success to a member`, async () => {
        const t = await things(kind, r);
        const req = requestFor(r, t);
        const before = await state(t);
        for (const who of outsiders) {
          const res = await as(accounts[who], req.method, req.path, req.options());
          expect(res.status, `${who}: ${JSON.stringify(res.body)}`).toBe(404);
          expect((res.body as { error: { code: string } }).error.code).toBe('not_found');
        }
        expect(await state(t), 'a refused request must change nothing').toEqual(before);
        const res = await as(accounts.insider, req.method, req.path, req.options());
        expect(res.status, JSON.stringify(res.body)).toBe(expectedForMember(r, kind));
      });
    }
  }

  it('never lists a private or direct conversation, its threads or its saved messages to a non-member, and refuses its realtime channel', async () => {
    const seen = async (who: Account) => {
      const text = JSON.stringify(
        await Promise.all(
          ['/channels', '/conversations', '/threads?following=false', '/saved-messages'].map(
            async (path) => (await as(who, 'GET', path)).body,
          ),
        ),
      );
      return Object.values(conversations).filter((id) => text.includes(id)).length;
    };
    // A thread and a bookmark in each, made by the insider.
    for (const conv of Object.values(conversations)) {
      const root = (
        await as(accounts.insider, 'POST', `/conversations/${conv}/messages`, { body: { body_text: 'listed?' } })
      ).body as MessageBody;
      expect(
        (
          await as(accounts.insider, 'POST', `/conversations/${conv}/messages`, {
            body: { body_text: 'reply', parent_message_id: root.id },
          })
        ).status,
      ).toBe(201);
      expect((await as(accounts.insider, 'PUT', `/conversations/${conv}/messages/${root.id}/saved`)).status).toBe(200);
    }
    expect(await seen(accounts.insider)).toBe(2);
    for (const who of outsiders) expect(await seen(accounts[who]), who).toBe(0);

    const authorize = (who: Account, conv: string) =>
      as(who, 'POST', '/realtime/authorize', {
        body: { socket_id: '123.456', channel_name: `private-conversation-${conv}` },
      });
    for (const conv of Object.values(conversations)) {
      expect((await authorize(accounts.insider, conv)).status).toBe(200);
      for (const who of outsiders) expect((await authorize(accounts[who], conv)).status, who).toBe(403);
    }
  });
});
