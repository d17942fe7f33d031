import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { routeTable } from '../../gateway/src/app.ts';
import type { Route } from '../../gateway/src/routes/route.ts';
import { exampleIds } from '../../gateway/src/schemas.ts';
import { type Account, signUp } from './support/accounts.ts';
import { api, type ApiOptions, type ApiResponse } from './support/http.ts';
import { image, multipart } from './support/images.ts';
import type { MessageBody, Page } from './support/messages.ts';
import { addMember, createWorkspace, inWorkspace, myActor, workspaceState } from './support/workspaces.ts';

// Contract §11's scopes, driven by the gateway's route table: every route that needs a caller is tried with a
// workspace token and with a conversation token. The ones a row allows must succeed as its agent, and what they did is
// read back by someone else; the others must be 403 and change nothing, read back by the human members, the owner and
// the agent itself. A conversation token is refused both outside its conversation and inside it, on its own messages,
// assets and membership. Then a workspace token of one workspace is tried on every route against another workspace's
// ids and text: nothing of the other workspace may come back or change. A new route is covered as it is added: its
// request is built from its path, its body's first OpenAPI example and the overrides below.

const routes = routeTable({
  clients: {} as never,
  metrics: {} as never,
  notReady: async () => [],
  storage: { storage: undefined, secret: '' },
}).filter((r) => r.auth !== 'none');
const label = (r: Route) => `${r.method.toUpperCase()} ${r.path}`;
/** All a conversation token may call (contract §11): posting into its conversation, by either path form. */
const POSTING = ['POST /conversations/:conversation_id/messages', 'POST /channels/:channel_id/messages'];
const THUMBS = encodeURIComponent('👍');
const unique = (tag: string) => `${tag}-${randomBytes(4).toString('hex')}`;

let png: Buffer;
let owner: Account;
let human: Account;
let ws: string;
let agent: string;
let humanActor: string;
let workspaceAvatar: string;
/** The ids of the tokens this file makes to call with; any other token that appears was made by a request it sent. */
const ours = new Set<string>();

/** Tokens of the agent, a fresh one every 100 uses: each token's rate limit is a minute's 120 requests. */
function tokenSource(make: () => Promise<string>): () => Promise<string> {
  let current: Promise<string> | undefined;
  let uses = 0;
  return () => {
    if (!current || uses++ >= 100) {
      current = make();
      uses = 1;
    }
    return current;
  };
}

async function made(res: Promise<ApiResponse>): Promise<Record<string, unknown>> {
  const answer = await res;
  expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(300);
  return answer.body as Record<string, unknown>;
}

const asOwner = (workspaceId: string, method: string, path: string, options: ApiOptions = {}) =>
  inWorkspace(owner, workspaceId, method, path, options);
const tokenFor = (workspaceId: string, path: string, actorId: string) => async () => {
  const created = await made(asOwner(workspaceId, 'POST', path, { body: { actor_id: actorId, name: 'scopes' } }));
  ours.add(created.id as string);
  return created.token as string;
};
/** A request as the agent with one of its tokens. */
const withToken = async (token: () => Promise<string>, method: string, path: string, options: ApiOptions = {}) =>
  api(method, path, { ...options, token: await token() });

/** What a route's request points at. */
interface Target {
  workspaceId: string;
  conv: string;
  root: string;
  asset: string;
  actor: string;
  avatar: string;
  workspaceUser: string;
  token: string;
  invitation: string;
  /** The query string of `GET /search/messages`. */
  search: string;
}

function requestFor(
  r: Route,
  t: Target,
  options: { conversationToken?: boolean } = {},
): { method: string; path: string; options: ApiOptions } {
  const value: Record<string, string> = {
    conversation_id: t.conv,
    channel_id: t.conv,
    message_id: t.root,
    thread_root_id: t.root,
    asset_id: t.asset,
    actor_id: t.actor,
    workspace_actor_id: t.actor,
    avatar_id: t.avatar,
    workspace_user_id: t.workspaceUser,
    token_id: t.token,
    invitation_id: t.invitation,
    emoji: THUMBS,
  };
  const path = r.path.replace(/:(\w+)/g, (_, name: string) => {
    if (!(name in value)) throw new Error(`${label(r)}: no value for :${name}; teach this test what it names`);
    return value[name]!;
  });
  if (r.upload) return { method: r.method.toUpperCase(), path, options: multipart(png) };
  const example = (r.body as { meta?: () => { examples?: unknown[] } | undefined } | undefined)?.meta?.()
    ?.examples?.[0];
  if (r.body && example === undefined) throw new Error(`${label(r)}: its body has no example to build a request from`);
  const swap: Record<string, string> = {
    [exampleIds.workspace]: t.workspaceId,
    [exampleIds.channel]: t.conv,
    [exampleIds.message]: t.root,
    [exampleIds.asset]: t.asset,
    [exampleIds.actor]: t.actor,
    [exampleIds.workspaceUser]: t.workspaceUser,
    [exampleIds.invitation]: t.invitation,
  };
  let body =
    example === undefined
      ? undefined
      : (JSON.parse(JSON.stringify(example), (_k, v: unknown) =>
          typeof v === 'string' && v in swap ? swap[v] : v,
        ) as Record<string, unknown>);
  // What an example cannot say: names are unique, a message's id is the client's own, a conversation token attaches nothing.
  if (body && 'name' in body && r.path === '/channels') body = { ...body, name: unique('scopes') };
  if (body && 'client_message_id' in body) body = { ...body, client_message_id: randomBytes(6).toString('hex') };
  if (body && options.conversationToken) delete body.asset_ids;
  // A conversation token, and any token facing another workspace, asks for the target conversation's channel; a
  // workspace token in its own workspace for its agent's own.
  if (r.path === '/realtime/authorize')
    body = {
      socket_id: '123.456',
      channel_name:
        options.conversationToken || t.workspaceId !== ws ? `private-conversation-${t.conv}` : `private-actor-${agent}`,
    };
  const query = r.path === '/search/messages' ? `?${t.search}` : '';
  return { method: r.method.toUpperCase(), path: path + query, options: body === undefined ? {} : { body } };
}

/** The gateway's answers when a token's scope does not cover a route (contract §11). */
const SCOPE_REFUSAL = {
  workspace: /^A workspace token cannot use this route/,
  conversation:
    /^(A conversation token can only post messages into its conversation|This token posts only into its own conversation)\.$/,
};

/** Tries every route with the token and expects the token scope's 403 `forbidden` of each. */
async function expectRefused(
  kind: 'workspace' | 'conversation',
  token: () => Promise<string>,
  tried: Route[],
  target: Target,
): Promise<void> {
  for (const r of tried) {
    const req = requestFor(r, target, { conversationToken: kind === 'conversation' });
    const res = await withToken(token, req.method, req.path, req.options);
    const said = `${kind} token, ${label(r)} on ${req.path}: ${res.status} ${JSON.stringify(res.body)}`;
    expect(res.status, said).toBe(403);
    const error = (res.body as { error?: { code?: string; message?: string } }).error;
    expect(error?.code, said).toBe('forbidden');
    // The token's scope refused it (the gateway's answer), not the service: were the scope check skipped, an owner-only
    // route would still answer 403, from the service (an agent is no admin), with a message of its own. (A route widened
    // to tokens leaves this list; the allowed-calls test then expects its success.)
    expect(error?.message, said).toMatch(SCOPE_REFUSAL[kind]);
  }
}

/**
 * Everything a refused request in `conv` could have changed, as each can read it: the workspace and its tokens (the
 * owner; the file's own tokens come and get used as it goes, so of those only revocations count), the conversation,
 * its members, its messages and the root's replies with their reactions (the human and the owner), and what is stored
 * under the agent alone (its saved messages, read states and threads, through its workspace token). An asset
 * reservation shows nowhere but in its own 201, which the status check already refuses.
 */
async function observe(conv: string, root: string, agentToken: () => Promise<string>) {
  const { tokens, ...workspace } = await workspaceState(owner, ws);
  const all = tokens as Array<{ id: string; revoked_at: string | null }>;
  const body = async (res: Promise<ApiResponse>) => {
    const answer = await res;
    return { status: answer.status, body: answer.body };
  };
  const asHuman = (path: string) => body(inWorkspace(human, ws, 'GET', path));
  const asAgent = (path: string) => body(withToken(agentToken, 'GET', path));
  return {
    workspace,
    tokens: all.filter((t) => !ours.has(t.id)),
    revoked: all.filter((t) => t.revoked_at !== null).map((t) => t.id),
    channel: await body(asOwner(ws, 'GET', `/channels/${conv}`)),
    members: await body(asOwner(ws, 'GET', `/channels/${conv}/members`)),
    messages: await asHuman(`/conversations/${conv}/messages`),
    replies: await asHuman(`/conversations/${conv}/messages?parent_message_id=${root}`),
    ownerView: await body(asOwner(ws, 'GET', `/conversations/${conv}/messages`)),
    agent: {
      saved: await asAgent('/saved-messages'),
      readState: await asAgent(`/conversations/${conv}/read-state`),
      thread: await asAgent(`/threads/${root}/read-state`),
      threads: await asAgent('/threads'),
    },
  };
}

/**
 * A conversation of the agent's own making, with a conversation token into it and things of the agent's in it: a
 * root and a reply posted with that token, its reaction, the thread unfollowed, an uploaded asset. Its own, so that a
 * refusal can only be the token's scope: as a member with a workspace token the agent may rename the channel, edit and
 * delete the messages, leave, follow again, download the asset.
 */
async function ownConversation() {
  const workspaceToken = tokenSource(tokenFor(ws, '/workspace/tokens', agent));
  const asAgent = (method: string, path: string, options: ApiOptions = {}) =>
    made(withToken(workspaceToken, method, path, options));
  const room = (await asAgent('POST', '/channels', { body: { name: unique('scopes-own') } })).id as string;
  const conversationToken = tokenSource(tokenFor(ws, `/conversations/${room}/tokens`, agent));
  const post = async (body: Record<string, unknown>) =>
    (await made(withToken(conversationToken, 'POST', `/conversations/${room}/messages`, { body }))).id as string;
  const root = await post({ body_text: 'own root' });
  await post({ body_text: 'own reply', parent_message_id: root });
  await made(
    inWorkspace(human, ws, 'POST', `/conversations/${room}/messages`, { body: { body_text: 'a human in the room' } }),
  );
  await asAgent('PUT', `/conversations/${room}/messages/${root}/reactions/${THUMBS}`);
  await asAgent('PUT', `/threads/${root}/subscription`, { body: { following: false } });
  const asset = (
    await asAgent('POST', `/conversations/${room}/assets`, {
      body: { name: 'own.png', content_type: 'image/png', size_bytes: png.length },
    })
  ).id as string;
  await asAgent('PUT', `/conversations/${room}/assets/${asset}/content`, multipart(png));
  const tokens = (await made(asOwner(ws, 'GET', `/conversations/${room}/tokens`))) as unknown as Array<{ id: string }>;
  const target: Target = {
    workspaceId: ws,
    conv: room,
    root,
    asset,
    actor: agent,
    avatar: workspaceAvatar,
    workspaceUser: exampleIds.workspaceUser,
    // The token's own id: it may not revoke itself either.
    token: tokens[0]!.id,
    invitation: await invitationIn(ws, owner),
    search: `q=own&conversation_id=${room}`,
  };
  return { target, workspaceToken, conversationToken };
}

beforeAll(async () => {
  png = await image('png', 40, 40);
  [owner, human] = await Promise.all([signUp('scopes-owner'), signUp('scopes-human')]);
  ws = (await createWorkspace(owner)).id;
  await addMember(owner, ws, human);
  humanActor = (await myActor(human, ws)).id;
  agent = (await made(asOwner(ws, 'POST', '/workspace/actors', { body: { display_name: 'Scopes bot' } }))).id as string;
  workspaceAvatar = (await made(asOwner(ws, 'PUT', '/workspace/avatar', multipart(png)))).avatar_id as string;
});

describe('token scopes over the whole route table', () => {
  it('every route that needs a caller declares its tokens, and the owner and admin routes allow none', () => {
    expect(routes.length).toBeGreaterThan(70);
    const allowed = (scope: string) => routes.filter((r) => r.tokens === scope).map(label);
    expect(allowed('conversation')).toEqual(POSTING);
    for (const closed of [
      'GET /users/me',
      'GET /workspaces',
      'POST /auth/logout',
      'PATCH /workspace',
      'DELETE /workspace',
      'PUT /workspace/owner',
      'POST /workspace/users',
      'PATCH /workspace/users/:workspace_user_id',
      'GET /workspace/tokens',
      'POST /conversations/:conversation_id/tokens',
    ]) {
      expect(allowed('none')).toContain(closed);
    }
  });

  it('refuses (403) what neither token kind may call, and a conversation token outside its conversation, changing nothing', async () => {
    const room = (await made(inWorkspace(human, ws, 'POST', '/channels', { body: { name: unique('scopes') } })))
      .id as string;
    const other = (await made(inWorkspace(human, ws, 'POST', '/channels', { body: { name: unique('scopes') } })))
      .id as string;
    const root = (
      await made(
        inWorkspace(human, ws, 'POST', `/conversations/${other}/messages`, { body: { body_text: 'untouched' } }),
      )
    ).id as string;
    const workspaceToken = tokenSource(tokenFor(ws, '/workspace/tokens', agent));
    const conversationToken = tokenSource(tokenFor(ws, `/conversations/${room}/tokens`, agent));
    await workspaceToken();
    const tokenId = ((await asOwner(ws, 'GET', '/workspace/tokens')).body as Array<{ id: string }>)[0]!.id;
    const target: Target = {
      workspaceId: ws,
      conv: other,
      root,
      asset: exampleIds.asset,
      actor: agent,
      avatar: workspaceAvatar,
      workspaceUser: (await addMember(owner, ws, await signUp('scopes-x'))).id,
      token: tokenId,
      invitation: await invitationIn(ws, owner),
      search: `q=untouched&conversation_id=${other}`,
    };
    const before = await observe(other, root, workspaceToken);
    const workspaceRefused = routes.filter((r) => r.tokens === 'none');
    await expectRefused('workspace', workspaceToken, workspaceRefused, target);
    await expectRefused('conversation', conversationToken, routes, target);
    expect(await observe(other, root, workspaceToken), 'a refused request must change nothing').toEqual(before);
  });

  it('refuses (403) a conversation token every route but posting inside its own conversation, on its own messages, assets and membership, changing nothing', async () => {
    const { target, workspaceToken, conversationToken } = await ownConversation();
    const before = await observe(target.conv, target.root, workspaceToken);
    // Chosen by the contract's two posting routes, not by the table's scopes: a route widened in the table is tried too.
    const refused = routes.filter((r) => !POSTING.includes(label(r)));
    expect(refused.length).toBe(routes.length - POSTING.length);
    await expectRefused('conversation', conversationToken, refused, target);
    expect(await observe(target.conv, target.root, workspaceToken), 'a refused request must change nothing').toEqual(
      before,
    );
  });

  it('lets a workspace token call every other route as its agent, and a conversation token post and reply into its conversation, each with its effect', async () => {
    const workspaceToken = tokenSource(tokenFor(ws, '/workspace/tokens', agent));
    const room = (await made(withToken(workspaceToken, 'POST', '/channels', { body: { name: unique('scopes') } })))
      .id as string;
    const conversationToken = tokenSource(tokenFor(ws, `/conversations/${room}/tokens`, agent));
    const tried: string[] = [];
    for (const r of routes.filter((x) => x.tokens !== 'none')) {
      const target = await freshTarget(r, room, workspaceToken);
      const req = requestFor(r, target);
      if (r.path === '/conversations/direct') req.options.body = { actor_ids: [humanActor] };
      const res = await withToken(workspaceToken, req.method, req.path, req.options);
      const success = [r.status, ...(r.alternate ? [r.alternate.status] : [])];
      expect(success, `workspace token, ${label(r)}: ${res.status} ${JSON.stringify(res.body)}`).toContain(res.status);
      await expectEffect(r, target, req.options.body, res);
      if (POSTING.includes(label(r))) await expectPostedByToken(r, target, conversationToken);
      tried.push(label(r));
    }
    expect(tried.length).toBeGreaterThan(50);
  });

  it('gives a workspace token nothing of another workspace on any route: no id or text of it comes back, nothing of it changes', async () => {
    const { stranger, theirs, target, secrets } = await theirWorkspace();
    // Every route's search asks for their text, which their own member finds: finding nothing is then the wall, not a
    // query that cannot match. (The marker is in the request, so only the hit's ids would count as a leak; they do.)
    const found = (await made(
      inWorkspace(stranger, theirs, 'GET', `/search/messages?${target.search}`),
    )) as unknown as Page<{ message: MessageBody }>;
    expect(found.items.map((h) => h.message.id)).toEqual([target.root]);
    const state = async () => ({
      workspace: await workspaceState(stranger, theirs),
      messages: (await inWorkspace(stranger, theirs, 'GET', `/conversations/${target.conv}/messages`)).body,
      channel: (await inWorkspace(stranger, theirs, 'GET', `/channels/${target.conv}/members`)).body,
    });
    const before = await state();
    const workspaceToken = tokenSource(tokenFor(ws, '/workspace/tokens', agent));
    for (const r of routes) {
      const req = requestFor(r, target);
      for (const header of [undefined, theirs]) {
        const res = await withToken(workspaceToken, req.method, req.path, {
          ...req.options,
          headers: header ? { 'X-Workspace-Id': header } : {},
        });
        const text = JSON.stringify(res.body);
        const sent = req.path + JSON.stringify(req.options.body ?? null);
        for (const secret of secrets)
          expect(
            text.includes(secret) && !sent.includes(secret) ? secret : undefined,
            `${label(r)} answered ${res.status} ${text}`,
          ).toBeUndefined();
        if (NAMES_THEIR_THING.test(r.path))
          expect([400, 403, 404], `${label(r)}: ${res.status} ${text}`).toContain(res.status);
        if (header) expect(res.status, `${label(r)} naming their workspace`).toBe(403);
      }
    }
    expect(await state(), 'nothing of theirs may change').toEqual(before);
  });
});

/** Fresh things for one route, made by the agent with its workspace token, so that no route sees another's changes. */
async function freshTarget(r: Route, room: string, workspaceToken: () => Promise<string>): Promise<Target> {
  const asAgent = (method: string, path: string, options: ApiOptions = {}) =>
    made(withToken(workspaceToken, method, path, options));
  const root = (
    await asAgent('POST', `/conversations/${room}/messages`, { body: { body_text: `root for ${label(r)}` } })
  ).id as string;
  const asset = (
    await asAgent('POST', `/conversations/${room}/assets`, {
      body: { name: 'a.png', content_type: 'image/png', size_bytes: png.length },
    })
  ).id as string;
  if (!r.upload) await asAgent('PUT', `/conversations/${room}/assets/${asset}/content`, multipart(png));
  const avatar = r.path.includes(':workspace_actor_id/avatar/:avatar_id')
    ? ((await asAgent('PUT', `/workspace/actors/${agent}/avatar`, multipart(png))).avatar_id as string)
    : workspaceAvatar;
  return {
    workspaceId: ws,
    conv: room,
    root,
    asset,
    actor:
      r.path.startsWith('/channels/:channel_id/members') || r.path === '/conversations/direct' ? humanActor : agent,
    avatar,
    workspaceUser: exampleIds.workspaceUser,
    token: exampleIds.user,
    invitation: exampleIds.invitation,
    search: 'q=scopes',
  };
}

/** A message of the target's conversation as the human member sees it (who neither posted nor changed it). */
async function readBack(t: Target, id: string): Promise<MessageBody> {
  const res = await inWorkspace(human, ws, 'GET', `/conversations/${t.conv}/messages/${id}`);
  expect(res.status, `the human reading back ${id}: ${JSON.stringify(res.body)}`).toBe(200);
  return res.body as MessageBody;
}

/** What an allowed message call did, read back by the human where it shows: posts, edits, deletes, reactions. */
async function expectEffect(r: Route, t: Target, sent: unknown, res: ApiResponse): Promise<void> {
  const action = `${r.method} ${r.path.replace(/^\/(conversations|channels)\/:\w+/, '')}`;
  const text = (sent as { body_text?: string } | undefined)?.body_text;
  const said = `workspace token, ${label(r)}`;
  if (action === 'post /messages') {
    const posted = res.body as MessageBody;
    expect(posted.author_actor_id, said).toBe(agent);
    const stored = await readBack(t, posted.id);
    expect(
      { author: stored.author_actor_id, conversation: stored.conversation_id, text: stored.body_text },
      said,
    ).toEqual({ author: agent, conversation: t.conv, text });
  }
  if (action === 'patch /messages/:message_id') {
    const stored = await readBack(t, t.root);
    expect({ text: stored.body_text, edited: stored.edited_at !== null }, said).toEqual({ text, edited: true });
  }
  if (action === 'delete /messages/:message_id') expect((await readBack(t, t.root)).deleted_at, said).not.toBeNull();
  if (action === 'put /messages/:message_id/reactions/:emoji')
    expect((await readBack(t, t.root)).reactions, said).toEqual([{ emoji: '👍', actor_ids: [agent] }]);
}

/**
 * A conversation token's top-level post and reply into its conversation by the route's path form: each is there
 * afterwards as the human reads it, authored by the agent, in that conversation, the reply in the root's thread.
 */
async function expectPostedByToken(r: Route, t: Target, token: () => Promise<string>): Promise<void> {
  const own = requestFor(r, t, { conversationToken: true });
  const posted: Record<string, string | null> = {};
  for (const parent of [null, t.root]) {
    const text = unique('posted by its conversation token');
    // A client_message_id of its own: the same one again would be a retry, answered with the first post.
    const body = {
      ...(own.options.body as Record<string, unknown>),
      client_message_id: unique('c'),
      body_text: text,
      parent_message_id: parent,
    };
    const res = await withToken(token, own.method, own.path, { body });
    const said = `conversation token, ${label(r)}, ${parent ? 'reply' : 'post'}: ${JSON.stringify(res.body)}`;
    expect(res.status, said).toBe(201);
    expect((res.body as MessageBody).author_actor_id, said).toBe(agent);
    const stored = await readBack(t, (res.body as MessageBody).id);
    expect(
      {
        author: stored.author_actor_id,
        conversation: stored.conversation_id,
        parent: stored.parent_message_id,
        text: stored.body_text,
      },
      said,
    ).toEqual({ author: agent, conversation: t.conv, parent, text });
    posted[parent ? 'reply' : 'post'] = stored.id;
  }
  const thread = await inWorkspace(human, ws, 'GET', `/conversations/${t.conv}/messages?parent_message_id=${t.root}`);
  expect((thread.body as Page<MessageBody>).items.map((m) => m.id)).toContain(posted.reply);
}

/** Another workspace, of a stranger, with one of everything; its marker is the text of its channel and its message. */
async function theirWorkspace() {
  const stranger = await signUp('scopes-stranger');
  const theirs = (await createWorkspace(stranger)).id;
  const as = (method: string, path: string, options: ApiOptions = {}) =>
    made(inWorkspace(stranger, theirs, method, path, options));
  const marker = `their-secret-${randomBytes(4).toString('hex')}`;
  const conv = (await as('POST', '/channels', { body: { name: marker } })).id as string;
  const root = (await as('POST', `/conversations/${conv}/messages`, { body: { body_text: marker } })).id as string;
  const asset = (
    await as('POST', `/conversations/${conv}/assets`, {
      body: { name: `${marker}.png`, content_type: 'image/png', size_bytes: png.length },
    })
  ).id as string;
  await as('PUT', `/conversations/${conv}/assets/${asset}/content`, multipart(png));
  const theirActor = (await myActor(stranger, theirs)).id;
  const theirAgent = (await as('POST', '/workspace/actors', { body: { display_name: marker } })).id as string;
  const theirToken = (await as('POST', '/workspace/tokens', { body: { actor_id: theirAgent, name: marker } }))
    .id as string;
  const avatar = (await as('PUT', '/workspace/avatar', multipart(png))).avatar_id as string;
  const target: Target = {
    workspaceId: theirs,
    conv,
    root,
    asset,
    actor: theirActor,
    avatar,
    workspaceUser: exampleIds.workspaceUser,
    token: theirToken,
    invitation: await invitationIn(theirs, stranger),
    // Their message's own text: a search that ignored whose workspace it reads would find it.
    search: `q=${encodeURIComponent(marker)}`,
  };
  const secrets = [theirs, conv, root, asset, theirActor, theirAgent, theirToken, avatar, target.invitation, marker];
  return { stranger, theirs, target, secrets };
}

/** A pending invitation of the workspace, made by its owner. */
async function invitationIn(workspaceId: string, by: Account): Promise<string> {
  const invited = await made(
    inWorkspace(by, workspaceId, 'POST', '/workspace/invitations', {
      body: { email: `${unique('scopes-invited')}@example.test` },
    }),
  );
  return invited.id as string;
}

/** Paths that name a thing of the other workspace (its answer must be a refusal). */
const NAMES_THEIR_THING =
  /:(conversation_id|channel_id|message_id|thread_root_id|asset_id|actor_id|workspace_actor_id|avatar_id|token_id|invitation_id)\b/;
