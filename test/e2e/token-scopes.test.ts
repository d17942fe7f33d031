import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { routeTable } from '../../gateway/src/app.ts';
import type { Route } from '../../gateway/src/routes/route.ts';
import { exampleIds } from '../../gateway/src/schemas.ts';
import { type Account, signUp } from './support/accounts.ts';
import { api, type ApiOptions, type ApiResponse } from './support/http.ts';
import { image, multipart } from './support/images.ts';
import type { MessageBody } from './support/messages.ts';
import { addMember, createWorkspace, inWorkspace, myActor, workspaceState } from './support/workspaces.ts';

// Contract §11's scopes, driven by the gateway's route table: every route that needs a caller is tried with a
// workspace token and with a conversation token. The ones a row allows must succeed as its agent; the others must be
// 403 and change nothing. Then a workspace token of one workspace is tried on every route against another workspace's
// ids: nothing of the other workspace may come back or change. A new route is covered as it is added: its request is
// built from its path, its body's first OpenAPI example and the overrides below.

const routes = routeTable({
  clients: {} as never,
  metrics: {} as never,
  notReady: async () => [],
  storage: { storage: undefined, secret: '' },
}).filter((r) => r.auth !== 'none');
const label = (r: Route) => `${r.method.toUpperCase()} ${r.path}`;

let png: Buffer;
let owner: Account;
let human: Account;
let ws: string;
let agent: string;
let humanActor: string;
let workspaceAvatar: string;

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
const tokenFor = (workspaceId: string, path: string, actorId: string) => async () =>
  (await made(asOwner(workspaceId, 'POST', path, { body: { actor_id: actorId, name: 'scopes' } }))).token as string;

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
    emoji: encodeURIComponent('👍'),
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
  };
  let body =
    example === undefined
      ? undefined
      : (JSON.parse(JSON.stringify(example), (_k, v: unknown) =>
          typeof v === 'string' && v in swap ? swap[v] : v,
        ) as Record<string, unknown>);
  // What an example cannot say: names are unique, a message's id is the client's own, a conversation token attaches nothing.
  if (body && 'name' in body && r.path === '/channels')
    body = { ...body, name: `scopes-${randomBytes(4).toString('hex')}` };
  if (body && 'client_message_id' in body) body = { ...body, client_message_id: randomBytes(6).toString('hex') };
  if (body && options.conversationToken) delete body.asset_ids;
  if (r.path === '/realtime/authorize') body = { socket_id: '123.456', channel_name: `private-actor-${agent}` };
  const query = r.path === '/search/messages' ? '?q=scopes' : '';
  return { method: r.method.toUpperCase(), path: path + query, options: body === undefined ? {} : { body } };
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
    expect(allowed('conversation')).toEqual([
      'POST /conversations/:conversation_id/messages',
      'POST /channels/:channel_id/messages',
    ]);
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
    const room = (
      await made(
        inWorkspace(human, ws, 'POST', '/channels', { body: { name: `scopes-${randomBytes(4).toString('hex')}` } }),
      )
    ).id as string;
    const other = (
      await made(
        inWorkspace(human, ws, 'POST', '/channels', { body: { name: `scopes-${randomBytes(4).toString('hex')}` } }),
      )
    ).id as string;
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
    };
    // The test's own tokens (named `scopes`) come and get used as it goes; every other token must stay as it was.
    const state = async () => {
      const { tokens, ...workspace } = await workspaceState(owner, ws);
      const others = (tokens as Array<{ name: string; last_used_at: string | null }>).filter(
        (t) => t.name !== 'scopes',
      );
      return {
        workspace,
        tokens: others,
        messages: (await inWorkspace(human, ws, 'GET', `/conversations/${other}/messages`)).body,
      };
    };
    const before = await state();
    const refusals: string[] = [];
    for (const r of routes) {
      const kinds = [
        ...(r.tokens === 'none' ? [['workspace', workspaceToken] as const] : []),
        ['conversation', conversationToken] as const,
      ];
      for (const [kind, token] of kinds) {
        const req = requestFor(r, target, { conversationToken: kind === 'conversation' });
        const res = await api(req.method, req.path, { ...req.options, token: await token() });
        expect(res.status, `${kind} token, ${label(r)}: ${JSON.stringify(res.body)}`).toBe(403);
        expect((res.body as { error: { code: string } }).error.code).toBe('forbidden');
        refusals.push(`${kind} ${label(r)}`);
      }
    }
    expect(refusals.length).toBeGreaterThan(routes.length);
    expect(await state(), 'a refused request must change nothing').toEqual(before);
  });

  it('lets a workspace token call every other route as its agent, and a conversation token post into its conversation', async () => {
    const workspaceToken = tokenSource(tokenFor(ws, '/workspace/tokens', agent));
    const room = (
      await made(
        api('POST', '/channels', {
          token: await workspaceToken(),
          body: { name: `scopes-${randomBytes(4).toString('hex')}` },
        }),
      )
    ).id as string;
    const conversationToken = tokenSource(tokenFor(ws, `/conversations/${room}/tokens`, agent));
    const tried: string[] = [];
    for (const r of routes.filter((x) => x.tokens !== 'none')) {
      // Fresh things for each route, made by the agent with its token, so no route sees another's changes.
      const root = (
        await made(
          api('POST', `/conversations/${room}/messages`, {
            token: await workspaceToken(),
            body: { body_text: `root for ${label(r)}` },
          }),
        )
      ).id as string;
      const asset = (
        await made(
          api('POST', `/conversations/${room}/assets`, {
            token: await workspaceToken(),
            body: { name: 'a.png', content_type: 'image/png', size_bytes: png.length },
          }),
        )
      ).id as string;
      if (!r.upload)
        await made(
          api('PUT', `/conversations/${room}/assets/${asset}/content`, {
            token: await workspaceToken(),
            ...multipart(png),
          }),
        );
      const pictured = r.path.includes(':workspace_actor_id/avatar/:avatar_id');
      const avatar = pictured
        ? ((
            await made(
              api('PUT', `/workspace/actors/${agent}/avatar`, { token: await workspaceToken(), ...multipart(png) }),
            )
          ).avatar_id as string)
        : workspaceAvatar;
      const actor =
        r.path.startsWith('/channels/:channel_id/members') || r.path === '/conversations/direct' ? humanActor : agent;
      const target: Target = {
        workspaceId: ws,
        conv: room,
        root,
        asset,
        actor,
        avatar,
        workspaceUser: exampleIds.workspaceUser,
        token: exampleIds.user,
      };
      const req = requestFor(r, target);
      if (r.path === '/conversations/direct') req.options.body = { actor_ids: [humanActor] };
      const res = await api(req.method, req.path, { ...req.options, token: await workspaceToken() });
      const success = [r.status, ...(r.alternate ? [r.alternate.status] : [])];
      expect(success, `workspace token, ${label(r)}: ${res.status} ${JSON.stringify(res.body)}`).toContain(res.status);
      if (r.tokens === 'conversation') {
        expect((res.body as MessageBody).author_actor_id).toBe(agent);
        const own = requestFor(r, target, { conversationToken: true });
        const posted = await api(own.method, own.path, { ...own.options, token: await conversationToken() });
        expect(posted.status, `conversation token, ${label(r)}: ${JSON.stringify(posted.body)}`).toBe(201);
        expect((posted.body as MessageBody).author_actor_id).toBe(agent);
      }
      tried.push(label(r));
    }
    expect(tried.length).toBeGreaterThan(50);
  });

  it('gives a workspace token nothing of another workspace on any route: no id or text of it comes back, nothing of it changes', async () => {
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
    };
    const secrets = [theirs, conv, root, asset, theirActor, theirAgent, theirToken, avatar, marker];
    const state = async () => ({
      workspace: await workspaceState(stranger, theirs),
      messages: (await inWorkspace(stranger, theirs, 'GET', `/conversations/${conv}/messages`)).body,
      channel: (await inWorkspace(stranger, theirs, 'GET', `/channels/${conv}/members`)).body,
    });
    const before = await state();
    const workspaceToken = tokenSource(tokenFor(ws, '/workspace/tokens', agent));
    for (const r of routes) {
      const req = requestFor(r, target);
      for (const header of [undefined, theirs]) {
        const res = await api(req.method, req.path, {
          ...req.options,
          token: await workspaceToken(),
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

/** Paths that name a thing of the other workspace (its answer must be a refusal). */
const NAMES_THEIR_THING =
  /:(conversation_id|channel_id|message_id|thread_root_id|asset_id|actor_id|workspace_actor_id|avatar_id|token_id)\b/;
