import { randomBytes } from 'node:crypto';
import { waitFor } from '@wms/testkit';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Account, expectError, signUp } from './support/accounts.ts';
import { api } from './support/http.ts';
import type { MessageBody } from './support/messages.ts';
import { connectRealtime, disconnectAll } from './support/realtime.ts';
import {
  type ActorBody,
  addMember,
  createWorkspace,
  expectUnchanged,
  inWorkspace,
  myActor,
} from './support/workspaces.ts';

// Agents acting with tokens through the gateway (contract §11): a workspace token uses the member API as its agent, a
// conversation token posts into its conversation; revocation, deactivation and deletion end them at the next request.

interface TokenBody {
  id: string;
  kind: string;
  conversation_id: string | null;
  actor_id: string;
  last_used_at: string | null;
  revoked_at: string | null;
  token: string | null;
}

let owner: Account;
let human: Account;
let ws: string;
let agent: ActorBody;
let humanActor: string;

const as = (
  who: Pick<Account, 'token'>,
  method: string,
  path: string,
  options: Parameters<typeof inWorkspace>[4] = {},
) => inWorkspace(who, ws, method, path, options);

async function newAgent(name = 'Helper bot'): Promise<ActorBody> {
  const res = await as(owner, 'POST', '/workspace/actors', { body: { display_name: name } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as ActorBody;
}

async function workspaceToken(
  actorId = agent.id,
  workspaceId = ws,
  by = owner,
): Promise<TokenBody & { token: string }> {
  const res = await inWorkspace(by, workspaceId, 'POST', '/workspace/tokens', {
    body: { actor_id: actorId, name: 'agent token' },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as TokenBody & { token: string };
}

async function conversationToken(conversationId: string, actorId = agent.id): Promise<TokenBody & { token: string }> {
  const res = await as(owner, 'POST', `/conversations/${conversationId}/tokens`, {
    body: { actor_id: actorId, name: 'webhook' },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as TokenBody & { token: string };
}

async function channel(by: Account, kind: 'public' | 'private', members: string[] = []): Promise<string> {
  const res = await as(by, 'POST', '/channels', {
    body: { name: `agents-${randomBytes(4).toString('hex')}`, kind, member_actor_ids: members },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return (res.body as { id: string }).id;
}

/** A request with the token alone: no X-Workspace-Id (the token names its workspace). */
const bare = (secret: string, method: string, path: string, options: Parameters<typeof api>[2] = {}) =>
  api(method, path, { ...options, token: secret });

beforeAll(async () => {
  [owner, human] = await Promise.all([signUp('agents-owner'), signUp('agents-human')]);
  ws = (await createWorkspace(owner)).id;
  await addMember(owner, ws, human);
  humanActor = (await myActor(human, ws)).id;
  agent = await newAgent();
});

afterEach(disconnectAll);

describe('a workspace token', () => {
  it('acts as its agent on member routes, with or without X-Workspace-Id naming its workspace', async () => {
    const { token } = await workspaceToken();
    const me = await bare(token, 'GET', '/workspace/actors/me');
    expect(me.status, JSON.stringify(me.body)).toBe(200);
    expect(me.body).toMatchObject({ id: agent.id, kind: 'agent', user_id: null });
    expect((await as({ token }, 'GET', '/workspace')).body).toMatchObject({ id: ws });

    const general = await channel(human, 'public');
    const posted = await bare(token, 'POST', `/channels/${general}/messages`, {
      body: { body_text: 'hello from the agent' },
    });
    expect(posted.status, JSON.stringify(posted.body)).toBe(201);
    expect(posted.body).toMatchObject({ author_actor_id: agent.id, body_text: 'hello from the agent' });
    const reacted = await bare(
      token,
      'PUT',
      `/conversations/${general}/messages/${(posted.body as MessageBody).id}/reactions/${encodeURIComponent('👍')}`,
    );
    expect(reacted.status, JSON.stringify(reacted.body)).toBe(200);
    // The human reads what the agent wrote, as the agent.
    const read = await as(human, 'GET', `/conversations/${general}/messages/${(posted.body as MessageBody).id}`);
    expect(read.body).toMatchObject({ author_actor_id: agent.id, reactions: [{ emoji: '👍', actor_ids: [agent.id] }] });
  });

  it('reads public channels and the private ones its agent belongs to; to it, the others do not exist', async () => {
    const { token } = await workspaceToken();
    const hidden = await channel(human, 'private');
    const shared = await channel(human, 'private', [agent.id]);
    await as(human, 'POST', `/conversations/${hidden}/messages`, { body: { body_text: 'secret' } });
    expectError(await bare(token, 'GET', `/conversations/${hidden}/messages`), 404, 'not_found');
    expectError(
      await bare(token, 'POST', `/conversations/${hidden}/messages`, { body: { body_text: 'let me in' } }),
      404,
      'not_found',
    );
    expect((await bare(token, 'GET', `/conversations/${shared}/messages`)).status).toBe(200);
    const listed = (await bare(token, 'GET', '/channels')).body as Array<{ id: string }>;
    expect(listed.map((c) => c.id)).toContain(shared);
    expect(listed.map((c) => c.id)).not.toContain(hidden);
    const found = (await bare(token, 'GET', '/search/messages?q=secret')).body as { items: unknown[] };
    expect(found.items).toEqual([]);
    expect(
      ((await as(human, 'GET', `/conversations/${hidden}/messages`)).body as { items: MessageBody[] }).items.map(
        (m) => m.body_text,
      ),
    ).toEqual(['secret']);
  });

  it('is refused (403) with another workspace in X-Workspace-Id, and (400) with a malformed one', async () => {
    const { token } = await workspaceToken();
    const elsewhere = (await createWorkspace(owner, 'Elsewhere')).id;
    expectError(await inWorkspace({ token }, elsewhere, 'GET', '/channels'), 403, 'forbidden');
    expectError(await inWorkspace({ token }, 'not-a-uuid', 'GET', '/channels'), 400, 'invalid_workspace_header');
    expectError(
      await inWorkspace({ token }, elsewhere, 'POST', '/channels', { body: { name: 'nope' } }),
      403,
      'forbidden',
    );
    expect(((await inWorkspace(owner, elsewhere, 'GET', '/channels')).body as unknown[]).length).toBe(0);
  });

  it('cannot use routes outside a workspace nor the owner and admin routes (403), changing nothing', async () => {
    const { token } = await workspaceToken();
    for (const [method, path] of [
      ['GET', '/users/me'],
      ['GET', '/workspaces'],
      ['POST', '/auth/logout'],
    ] as const) {
      expectError(await bare(token, method, path), 403, 'forbidden');
    }
    await expectUnchanged(owner, ws, async () => {
      expectError(await bare(token, 'GET', '/workspace/tokens'), 403, 'forbidden');
      expectError(
        await bare(token, 'POST', '/workspace/tokens', { body: { actor_id: agent.id, name: 'more' } }),
        403,
        'forbidden',
      );
      expectError(await bare(token, 'DELETE', '/workspace'), 403, 'forbidden');
      expectError(await bare(token, 'PATCH', '/workspace', { body: { name: 'Taken over' } }), 403, 'forbidden');
      expectError(await bare(token, 'POST', '/workspace/users', { body: { email: human.email } }), 403, 'forbidden');
      expectError(
        await bare(token, 'POST', '/workspace/actors', { body: { display_name: 'Another bot' } }),
        403,
        'forbidden',
      );
    });
  });

  it('stops at the next request once revoked, once its agent is deactivated, once its workspace is deleted', async () => {
    const general = await channel(human, 'public');
    const works = async (secret: string) => (await bare(secret, 'GET', `/conversations/${general}/messages`)).status;

    const revoked = await workspaceToken();
    expect(await works(revoked.token)).toBe(200);
    expect((await as(owner, 'DELETE', `/workspace/tokens/${revoked.id}`)).status).toBe(204);
    expectError(await bare(revoked.token, 'GET', `/conversations/${general}/messages`), 401, 'unauthenticated');

    const doomed = await newAgent('Doomed bot');
    const deactivated = await workspaceToken(doomed.id);
    const other = await workspaceToken();
    expect(await works(deactivated.token)).toBe(200);
    const off = await as(owner, 'POST', `/workspace/actors/${doomed.id}/deactivate`);
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    expect(off.body).toMatchObject({ id: doomed.id, deactivated_at: expect.any(String) });
    expectError(await bare(deactivated.token, 'GET', `/conversations/${general}/messages`), 401, 'unauthenticated');
    expect(await works(other.token)).toBe(200);
    expect((await as(owner, 'POST', `/workspace/actors/${doomed.id}/deactivate`)).body).toMatchObject({
      deactivated_at: (off.body as ActorBody).deactivated_at,
    });
    expectError(
      await as(owner, 'POST', `/workspace/tokens`, { body: { actor_id: doomed.id, name: 'again' } }),
      400,
      'invalid_input',
    );

    const gone = (await createWorkspace(owner, 'Short-lived')).id;
    const goneAgent = (await inWorkspace(owner, gone, 'POST', '/workspace/actors', { body: { display_name: 'Bot' } }))
      .body as ActorBody;
    const orphan = await workspaceToken(goneAgent.id, gone);
    expect((await bare(orphan.token, 'GET', '/workspace')).status).toBe(200);
    expect((await inWorkspace(owner, gone, 'DELETE', '/workspace')).status).toBe(204);
    expectError(await bare(orphan.token, 'GET', '/workspace'), 401, 'unauthenticated');
  });

  it('refuses a user actor to be deactivated (403) and a member to deactivate (403), changing nothing', async () => {
    const bot = await newAgent('Kept bot');
    await expectUnchanged(owner, ws, async () => {
      expectError(await as(owner, 'POST', `/workspace/actors/${humanActor}/deactivate`), 403, 'forbidden');
      expectError(await as(human, 'POST', `/workspace/actors/${bot.id}/deactivate`), 403, 'forbidden');
      expectError(
        await as(owner, 'POST', `/workspace/actors/00000000-0000-4000-8000-000000000000/deactivate`),
        404,
        'not_found',
      );
    });
  });

  it('records its last use to the minute, not on every request', async () => {
    const made = await workspaceToken();
    const lastUsed = async () =>
      ((await as(owner, 'GET', '/workspace/tokens')).body as TokenBody[]).find((t) => t.id === made.id)!.last_used_at;
    expect(await lastUsed()).toBeNull();
    const before = Date.now();
    expect((await bare(made.token, 'GET', '/workspace')).status).toBe(200);
    const first = await waitFor('last_used_at to be written', async () => (await lastUsed()) ?? undefined, 10_000, 50);
    expect(new Date(first).getTime()).toBeGreaterThanOrEqual(before - 1000);
    for (let i = 0; i < 5; i++) expect((await bare(made.token, 'GET', '/workspace')).status).toBe(200);
    // A canary: a use of another token, written after these, shows the writes are done; this one's stayed.
    const canary = await workspaceToken();
    expect((await bare(canary.token, 'GET', '/workspace')).status).toBe(200);
    await waitFor(
      'the canary use to be written',
      async () =>
        ((await as(owner, 'GET', '/workspace/tokens')).body as TokenBody[]).find((t) => t.id === canary.id)!
          .last_used_at ?? undefined,
      10_000,
      50,
    );
    expect(await lastUsed()).toBe(first);
  });

  it('subscribes with pusher-js as its agent, hears a message in a private channel it belongs to, replies, and the human hears the reply', async () => {
    const { token } = await workspaceToken();
    const room = await channel(human, 'private', [agent.id]);
    const bot = await connectRealtime({ token }, ws);
    expect(bot.config.channels).toMatchObject({ actor: `private-actor-${agent.id}` });
    await bot.subscribe(`private-conversation-${room}`);
    await bot.subscribe(`private-actor-${agent.id}`);
    const person = await connectRealtime(human, ws);
    await person.subscribe(`private-conversation-${room}`);

    const question = await as(human, 'POST', `/conversations/${room}/messages`, {
      body: { body_text: `@bot what time is it?`, mentioned_actor_ids: [agent.id] },
    });
    expect(question.status, JSON.stringify(question.body)).toBe(201);
    const rootId = (question.body as MessageBody).id;
    const heard = await bot.waitForEvent(
      `private-conversation-${room}`,
      'message.created',
      (d) => (d.message as MessageBody).id === rootId,
    );
    expect((heard.message as MessageBody).mentioned_actor_ids).toEqual([agent.id]);

    const reply = await bare(token, 'POST', `/conversations/${room}/messages`, {
      body: { body_text: 'It is time.', parent_message_id: rootId },
    });
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    const echoed = await person.waitForEvent(
      `private-conversation-${room}`,
      'message.created',
      (d) => (d.message as MessageBody).id === (reply.body as MessageBody).id,
    );
    expect(echoed.message).toMatchObject({ author_actor_id: agent.id, parent_message_id: rootId });

    // Not a channel it may not read.
    const hidden = await channel(human, 'private');
    await expect(bot.subscribe(`private-conversation-${hidden}`)).rejects.toMatchObject({ status: 403 });
  });

  it('is signed in to realtime as its agent, and a deactivation closes that connection', async () => {
    const doomed = await newAgent('Signed-in bot');
    const { token } = await workspaceToken(doomed.id);
    const room = await channel(human, 'private', [doomed.id]);
    const bot = await connectRealtime({ token }, ws);
    await bot.subscribe(`private-conversation-${room}`);
    bot.pusher.signin();
    await bot.pusher.user.signinDonePromise;
    expect(bot.pusher.user.user_data).toMatchObject({ id: doomed.id });
    const watcher = await connectRealtime(human, ws);
    await watcher.subscribe(`private-conversation-${room}`);

    expect((await as(owner, 'POST', `/workspace/actors/${doomed.id}/deactivate`)).status).toBe(200);
    await waitFor(
      'the provider to close the agent connection',
      () => bot.pusher.connection.state === 'disconnected',
      15_000,
      20,
    );
    const after = await as(human, 'POST', `/conversations/${room}/messages`, {
      body: { body_text: 'after the deactivation' },
    });
    await watcher.waitForEvent(
      `private-conversation-${room}`,
      'message.created',
      (d) => (d.message as MessageBody).id === (after.body as MessageBody).id,
    );
    expect(bot.on(`private-conversation-${room}`, 'message.created')).toEqual([]);
  });

  it('shows its agent in presence like a user', async () => {
    const { token } = await workspaceToken();
    const bot = await connectRealtime({ token }, ws);
    const members = (await bot.subscribe(`presence-workspace-${ws}`)) as {
      members: Record<string, { display_name: string }>;
    };
    expect(members.members[agent.id]).toMatchObject({ display_name: agent.display_name });
    const online = await waitFor(
      'the agent online',
      async () => {
        const res = await as(human, 'GET', '/realtime/presence');
        return (res.body as Array<{ actor_id: string }>).some((p) => p.actor_id === agent.id) ? res.body : undefined;
      },
      10_000,
      100,
    );
    expect(online).toEqual(expect.arrayContaining([expect.objectContaining({ actor_id: agent.id })]));
  });
});

describe('a conversation token', () => {
  it('posts into its conversation by either path form, once per client_message_id however often it is retried', async () => {
    const room = await channel(human, 'public');
    const { token } = await conversationToken(room);
    const send = (path: string) =>
      bare(token, 'POST', path, { body: { body_text: 'build 42 passed', client_message_id: 'build-42' } });
    const results = await Promise.all([
      send(`/conversations/${room}/messages`),
      send(`/channels/${room}/messages`),
      send(`/conversations/${room}/messages`),
    ]);
    expect(results.map((r) => r.status)).toEqual([201, 201, 201]);
    const ids = new Set(results.map((r) => (r.body as MessageBody).id));
    expect(ids.size).toBe(1);
    const listed = ((await as(human, 'GET', `/conversations/${room}/messages`)).body as { items: MessageBody[] }).items;
    expect(listed.map((m) => [m.body_text, m.author_actor_id])).toEqual([['build 42 passed', agent.id]]);
    // With X-Workspace-Id naming its workspace, too.
    expect(
      (await as({ token }, 'POST', `/channels/${room}/messages`, { body: { body_text: 'and again' } })).status,
    ).toBe(201);
  });

  it('stops at the next request once revoked through the workspace route, like a workspace token', async () => {
    const room = await channel(human, 'public');
    const made = await conversationToken(room);
    expect(
      (await bare(made.token, 'POST', `/conversations/${room}/messages`, { body: { body_text: 'before' } })).status,
    ).toBe(201);
    expect((await as(owner, 'DELETE', `/workspace/tokens/${made.id}`)).status).toBe(204);
    expectError(
      await bare(made.token, 'POST', `/conversations/${room}/messages`, { body: { body_text: 'after' } }),
      401,
      'unauthenticated',
    );
    const listed = ((await as(owner, 'GET', `/conversations/${room}/tokens`)).body as TokenBody[]).find(
      (t) => t.id === made.id,
    )!;
    expect(listed.revoked_at).toEqual(expect.any(String));
    expect(
      ((await as(human, 'GET', `/conversations/${room}/messages`)).body as { items: MessageBody[] }).items.map(
        (m) => m.body_text,
      ),
    ).toEqual(['before']);
  });

  it('can do nothing else: another conversation, reading, another route, another workspace (403), changing nothing', async () => {
    const room = await channel(human, 'public');
    const other = await channel(human, 'public');
    const { token } = await conversationToken(room);
    expectError(
      await bare(token, 'POST', `/conversations/${other}/messages`, { body: { body_text: 'spam' } }),
      403,
      'forbidden',
    );
    expectError(await bare(token, 'GET', `/conversations/${room}/messages`), 403, 'forbidden');
    expectError(await bare(token, 'GET', '/channels'), 403, 'forbidden');
    expectError(await bare(token, 'GET', '/users/me'), 403, 'forbidden');
    expectError(
      await inWorkspace(
        { token },
        (await createWorkspace(owner, 'Other')).id,
        'POST',
        `/conversations/${room}/messages`,
        { body: { body_text: 'x' } },
      ),
      403,
      'forbidden',
    );
    for (const conv of [room, other])
      expect(((await as(human, 'GET', `/conversations/${conv}/messages`)).body as { items: unknown[] }).items).toEqual(
        [],
      );
  });

  it('makes its agent a member of a private channel, and in a direct conversation needs a participant agent (400 otherwise)', async () => {
    const bot = await newAgent('Private bot');
    const room = await channel(human, 'private', [(await myActor(owner, ws)).id]);
    const made = await conversationToken(room, bot.id);
    expect(made).toMatchObject({
      kind: 'conversation',
      conversation_id: room,
      actor_id: bot.id,
      token: expect.stringMatching(/^wms_ct_[A-Za-z0-9_-]{43}$/),
    });
    const members = (
      (await as(human, 'GET', `/channels/${room}/members`)).body as { items: Array<{ actor_id: string }> }
    ).items.map((m) => m.actor_id);
    expect(members).toContain(bot.id);
    expect(
      (await bare(made.token, 'POST', `/conversations/${room}/messages`, { body: { body_text: 'in private' } })).status,
    ).toBe(201);

    const direct = await as(owner, 'POST', '/conversations/direct', { body: { actor_ids: [humanActor] } });
    const dm = (direct.body as { id: string }).id;
    const refused = await as(owner, 'POST', `/conversations/${dm}/tokens`, {
      body: { actor_id: bot.id, name: 'not a participant' },
    });
    expectError(refused, 400, 'invalid_input');
    const withBot = (await as(owner, 'POST', '/conversations/direct', { body: { actor_ids: [bot.id] } })).body as {
      id: string;
    };
    const dmToken = await conversationToken(withBot.id, bot.id);
    expect(
      (await bare(dmToken.token, 'POST', `/conversations/${withBot.id}/messages`, { body: { body_text: 'hi owner' } }))
        .status,
    ).toBe(201);
    const listed = (await as(owner, 'GET', `/conversations/${dm}/tokens`)).body as TokenBody[];
    expect(listed).toEqual([]);
    expect(
      ((await as(owner, 'GET', `/conversations/${withBot.id}/tokens`)).body as TokenBody[]).map((t) => [t.id, t.token]),
    ).toEqual([[dmToken.id, null]]);
  });

  it('is made and listed by owners and admins who read the conversation: 404 to others, 403 to members, nothing made', async () => {
    const room = await channel(human, 'private');
    await expectUnchanged(owner, ws, async () => {
      expectError(
        await as(owner, 'POST', `/conversations/${room}/tokens`, { body: { actor_id: agent.id, name: 'x' } }),
        404,
        'not_found',
      );
      expectError(await as(owner, 'GET', `/conversations/${room}/tokens`), 404, 'not_found');
      expectError(
        await as(human, 'POST', `/conversations/${room}/tokens`, { body: { actor_id: agent.id, name: 'x' } }),
        403,
        'forbidden',
      );
      expectError(await as(human, 'GET', `/conversations/${room}/tokens`), 403, 'forbidden');
    });
    const members = (
      (await as(human, 'GET', `/channels/${room}/members`)).body as { items: Array<{ actor_id: string }> }
    ).items.map((m) => m.actor_id);
    expect(members).toEqual([humanActor]);
  });
});

describe('token authentication', () => {
  it('refuses malformed, unknown and forged tokens (401), and answers no 5xx for anything shaped like one', async () => {
    const { token } = await workspaceToken();
    const body = token.slice(7);
    for (const value of [
      `wms_wt_${'A'.repeat(43)}`,
      `wms_ct_${body}`,
      `wms_wt_${body.slice(0, 42)}`,
      `wms_wt_${body}A`,
      `wms_xt_${body}`,
      'wms_wt_',
      `wms_wt_${body.slice(0, 40)}%00%`,
    ]) {
      const res = await api('GET', '/workspace', { headers: { authorization: `Bearer ${value}` } });
      expectError(res, 401, 'unauthenticated');
    }
    expect((await bare(token, 'GET', '/workspace')).status).toBe(200);
  });

  it('limits each token to TOKEN_RATE_LIMIT_PER_MINUTE requests in a sliding minute (429 with Retry-After), per token', async () => {
    const limited = await workspaceToken();
    const statuses: number[] = [];
    for (let i = 0; i < 120; i += 20) {
      statuses.push(
        ...(await Promise.all(Array.from({ length: 20 }, () => bare(limited.token, 'GET', '/workspace')))).map(
          (r) => r.status,
        ),
      );
    }
    expect(statuses.every((s) => s === 200)).toBe(true);
    const over = await bare(limited.token, 'GET', '/workspace');
    const error = expectError(over, 429, 'rate_limited');
    expect(error.details).toEqual([expect.objectContaining({ field: 'header.authorization' })]);
    const retry = Number(over.headers.get('retry-after'));
    expect(retry).toBeGreaterThanOrEqual(1);
    expect(retry).toBeLessThanOrEqual(60);
    // Another token of the same agent has its own window.
    expect((await bare((await workspaceToken()).token, 'GET', '/workspace')).status).toBe(200);
    // A refused request posts nothing.
    const room = await channel(human, 'public');
    expectError(
      await bare(limited.token, 'POST', `/conversations/${room}/messages`, { body: { body_text: 'over the limit' } }),
      429,
      'rate_limited',
    );
    expect(((await as(human, 'GET', `/conversations/${room}/messages`)).body as { items: unknown[] }).items).toEqual(
      [],
    );
  });
});
