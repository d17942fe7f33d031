import { createHmac, randomUUID } from 'node:crypto';
import { processEnvironment, waitFor } from '@wms/testkit';
import { afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Account, expectError, signUp } from './support/accounts.ts';
import { recordedEvents } from './support/events.ts';
import { api, gatewayUrl } from './support/http.ts';
import { serverPids } from './support/memory.ts';
import { createChannel, type MessageBody, postText, type ReadStateBody } from './support/messages.ts';
import {
  connectRealtime,
  disconnectAll,
  eventIds,
  type RealtimeClient,
  realtimeConfig,
  SubscriptionRefusedError,
} from './support/realtime.ts';
import { addMember, createWorkspace, inWorkspace, myActor } from './support/workspaces.ts';

// Realtime end to end (contract §7, issue 13): pusher-js in Node, knowing only the gateway's URL, connects through the
// gateway's websocket proxy to the cluster's Soketi, is authorized by the gateway, receives the events the data owners
// commit, sees presence, and catches up on what it missed over HTTP.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

let alice: Account;
let bob: Account;
let olga: Account;

beforeAll(async () => {
  [alice, bob, olga] = await Promise.all([signUp('rt-alice'), signUp('rt-bob'), signUp('rt-olga')]);
});

afterEach(disconnectAll);

/** A fresh workspace of `owner` with a channel, and the owner's actor there. */
async function workspaceOf(owner: Account, tag: string) {
  const ws = (await createWorkspace(owner, `Realtime ${tag}`)).id;
  const conv = await createChannel(owner, ws, tag);
  return { ws, conv, actor: await myActor(owner, ws) };
}

const channels = (ws: string, actorId: string, conv: string) => ({
  workspace: `private-workspace-${ws}`,
  presence: `presence-workspace-${ws}`,
  actor: `private-actor-${actorId}`,
  conversation: `private-conversation-${conv}`,
});

/** A client subscribed to the account's workspace channel, actor channel and a conversation. */
async function listening(account: Account, ws: string, conv: string): Promise<RealtimeClient> {
  const client = await connectRealtime(account, ws);
  const mine = channels(ws, client.config.channels.actor.slice('private-actor-'.length), conv);
  await Promise.all([
    client.subscribe(mine.workspace),
    client.subscribe(mine.actor),
    client.subscribe(mine.conversation),
  ]);
  return client;
}

interface Presence {
  actor_id: string;
  status: string;
  since: string;
}

const online = async (account: Account, ws: string): Promise<Presence[]> => {
  const res = await inWorkspace(account, ws, 'GET', '/realtime/presence');
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as Presence[];
};

describe('connecting with nothing but the gateway URL', () => {
  it('reads /realtime/config, connects through the gateway and subscribes to its workspace, presence, actor and conversation channels', async () => {
    const { ws, conv, actor } = await workspaceOf(alice, 'connect');
    const config = await realtimeConfig(alice, ws);
    const gateway = new URL(gatewayUrl());
    // The websocket is the gateway's own address: a client needs nothing else.
    expect(config).toMatchObject({
      provider: 'pusher',
      ws_port: Number(gateway.port),
      wss_port: Number(gateway.port),
      ws_path: '/realtime/ws',
      force_tls: false,
      channel_authorization_endpoint: '/realtime/authorize',
      user_authentication_endpoint: '/realtime/authenticate',
      channels: {
        workspace: `private-workspace-${ws}`,
        presence: `presence-workspace-${ws}`,
        actor: `private-actor-${actor.id}`,
      },
    });
    expect(config.app_key).toMatch(/^wms-/);
    expect(['localhost', '127.0.0.1']).toContain(config.ws_host);

    const client = await connectRealtime(alice, ws);
    const mine = channels(ws, actor.id, conv);
    const [, members] = await Promise.all([
      client.subscribe(mine.workspace),
      client.subscribe(mine.presence),
      client.subscribe(mine.actor),
      client.subscribe(mine.conversation),
    ]);
    expect(client.pusher.connection.state).toBe('connected');
    expect(client.pusher.connection.socket_id).toMatch(/^\d+\.\d+$/);
    // The presence member is the caller's actor, with what other members are shown of it.
    expect((members as { me: unknown }).me).toEqual({
      id: actor.id,
      info: { display_name: actor.display_name, avatar_id: null },
    });
    expect((members as { count: number }).count).toBe(1);
  });
});

describe('events of the catalogue', () => {
  it('arrive on the right channels, each with a UUID event_id and the payload of §7, and never reach another workspace', async () => {
    const a = await workspaceOf(alice, 'events');
    const o = await workspaceOf(olga, 'elsewhere');
    const mine = channels(a.ws, a.actor.id, a.conv);
    const theirs = channels(o.ws, o.actor.id, o.conv);
    const client = await listening(alice, a.ws, a.conv);
    const outsider = await listening(olga, o.ws, o.conv);

    const root = await postText(alice, a.ws, a.conv, 'hello realtime');
    const reactions = await inWorkspace(
      alice,
      a.ws,
      'PUT',
      `/conversations/${a.conv}/messages/${root.id}/reactions/${encodeURIComponent('👍')}`,
    );
    expect(reactions.status).toBe(200);
    const reply = await postText(alice, a.ws, a.conv, 'a reply', { parent_message_id: root.id });
    const readState = await inWorkspace(alice, a.ws, 'PUT', `/conversations/${a.conv}/read-state`, {
      body: { last_read_message_id: root.id },
    });
    expect(readState.status).toBe(200);
    const saved = await inWorkspace(alice, a.ws, 'PUT', `/conversations/${a.conv}/messages/${root.id}/saved`);
    expect(saved.status).toBe(200);
    const added = await addMember(alice, a.ws, bob);

    const created = await client.waitForEvent(
      mine.conversation,
      'message.created',
      (d) => (d.message as MessageBody).id === root.id,
    );
    // The message as the POST answered it (a bookmark is its owner's alone: saved_at is null in both).
    expect(created).toEqual({ event_id: expect.stringMatching(UUID), message: root });
    const replied = await client.waitForEvent(
      mine.conversation,
      'message.created',
      (d) => (d.message as MessageBody).id === reply.id,
    );
    expect(replied).toEqual({ event_id: expect.stringMatching(UUID), message: reply });
    expect(await client.waitForEvent(mine.conversation, 'reactions.updated')).toEqual({
      event_id: expect.stringMatching(UUID),
      conversation_id: a.conv,
      reactions: reactions.body,
    });
    expect(await client.waitForEvent(mine.conversation, 'thread.updated')).toEqual({
      event_id: expect.stringMatching(UUID),
      conversation_id: a.conv,
      root_id: root.id,
      reply_count: 1,
      reply_actor_ids: [a.actor.id],
      last_reply_at: reply.created_at,
    });
    expect(await client.waitForEvent(mine.actor, 'read_state.updated')).toEqual({
      event_id: expect.stringMatching(UUID),
      read_state: readState.body as ReadStateBody,
    });
    expect(await client.waitForEvent(mine.actor, 'saved.updated')).toEqual({
      event_id: expect.stringMatching(UUID),
      saved: saved.body,
    });
    const joined = await client.waitForEvent(mine.workspace, 'workspace_user.added');
    expect(joined).toEqual({ event_id: expect.stringMatching(UUID), workspace_user: added });

    // Each on its channel only (delivery is at least once: a repeat has the same event_id).
    const names = [
      'message.created',
      'reactions.updated',
      'thread.updated',
      'read_state.updated',
      'saved.updated',
      'workspace_user.added',
    ];
    const where = new Map(
      client.received
        .filter((e) => names.includes(e.event))
        .map((e) => [e.data.event_id, `${e.event} on ${e.channel}`]),
    );
    expect([...where.values()].sort()).toEqual(
      [
        `message.created on ${mine.conversation}`,
        `message.created on ${mine.conversation}`,
        `reactions.updated on ${mine.conversation}`,
        `thread.updated on ${mine.conversation}`,
        `read_state.updated on ${mine.actor}`,
        `saved.updated on ${mine.actor}`,
        `workspace_user.added on ${mine.workspace}`,
      ].sort(),
    );
    const seen = eventIds(client.received.map((e) => e.data).filter((d) => d.event_id !== undefined));

    // Events are triggered in commit order, so once an event of the other workspace committed after all of these
    // arrives, any of these that was to reach it would have arrived first.
    const canary = await createChannel(olga, o.ws, 'canary');
    await outsider.waitForEvent(
      theirs.workspace,
      'channel.created',
      (d) => (d.channel as { id: string }).id === canary,
    );
    const leaked = outsider.received.filter(
      (e) => seen.includes(String(e.data.event_id)) || JSON.stringify(e.data).includes(a.ws),
    );
    expect(leaked).toEqual([]);
    expect(new Set(outsider.received.map((e) => e.channel))).toEqual(new Set([theirs.workspace]));
  });
});

describe('channel authorization', () => {
  it("refuses another workspace's channels, a colleague's actor channel, another workspace's conversation and unknown names with 403", async () => {
    const a = await workspaceOf(alice, 'refusals');
    const o = await workspaceOf(olga, 'refused');
    const colleague = await addMember(alice, a.ws, bob);
    const client = await connectRealtime(alice, a.ws);
    const forbidden = [
      `private-workspace-${o.ws}`,
      `presence-workspace-${o.ws}`,
      `private-actor-${colleague.actor_id}`,
      `private-actor-${o.actor.id}`,
      `private-conversation-${o.conv}`,
      `private-conversation-${randomUUID()}`,
      `private-unknown-${randomUUID()}`,
      `private-workspace-${a.ws}x`,
    ];
    for (const channel of forbidden) {
      const refusal = await client.subscribe(channel).then(
        () => undefined,
        (err: unknown) => err,
      );
      expect(refusal, channel).toBeInstanceOf(SubscriptionRefusedError);
      expect((refusal as SubscriptionRefusedError).status, channel).toBe(403);
    }
    // The same connection is still authorized for its own channels.
    await client.subscribe(`private-workspace-${a.ws}`);

    // The refusal is the contract's error.
    const socketId = client.pusher.connection.socket_id;
    const refused = await inWorkspace(alice, a.ws, 'POST', '/realtime/authorize', {
      body: { socket_id: socketId, channel_name: `private-workspace-${o.ws}` },
    });
    expectError(refused, 403, 'forbidden');
  });
});

describe('removal from the workspace', () => {
  it('tells the removed member, then closes its signed-in connection: its subscriptions end with its membership', async () => {
    const a = await workspaceOf(alice, 'removal');
    const added = await addMember(alice, a.ws, bob);
    const watcher = await listening(alice, a.ws, a.conv);
    const removed = await listening(bob, a.ws, a.conv);
    removed.pusher.signin();
    await removed.pusher.user.signinDonePromise;

    expect((await inWorkspace(alice, a.ws, 'DELETE', `/workspace/users/${added.id}`)).status).toBe(204);
    const told = await removed.waitForEvent(removed.config.channels.workspace, 'workspace_user.removed');
    expect(told).toMatchObject({ workspace_user: { id: added.id, actor_id: added.actor_id } });
    await waitFor(
      'the provider to close its connection',
      () => removed.pusher.connection.state === 'disconnected',
      15_000,
      20,
    );

    // What follows reaches the members that remain, and not the removed one (pusher-js does not reconnect after 4009).
    const after = await postText(alice, a.ws, a.conv, 'after the removal');
    await watcher.waitForEvent(
      `private-conversation-${a.conv}`,
      'message.created',
      (d) => (d.message as MessageBody).id === after.id,
    );
    expect(
      removed.on(`private-conversation-${a.conv}`, 'message.created').map((d) => (d.message as MessageBody).id),
    ).not.toContain(after.id);
    expect(removed.pusher.connection.state).toBe('disconnected');
  });
});

describe('presence', () => {
  it('shows a member online while its client is connected, and offline once it disconnects, with presence.updated and the presence channel', async () => {
    const a = await workspaceOf(alice, 'presence');
    const membership = await addMember(alice, a.ws, bob);
    const bobActor = await myActor(bob, a.ws);
    const mine = channels(a.ws, a.actor.id, a.conv);
    const watcher = await connectRealtime(alice, a.ws);
    await Promise.all([watcher.subscribe(mine.workspace), watcher.subscribe(mine.presence)]);
    await waitFor('alice online', async () => (await online(alice, a.ws)).some((p) => p.actor_id === a.actor.id));

    const bobs = await connectRealtime(bob, a.ws);
    await Promise.all([bobs.subscribe(bobs.config.channels.actor), bobs.subscribe(bobs.config.channels.presence)]);
    const listed = await waitFor('bob in /realtime/presence', async () =>
      (await online(alice, a.ws)).find((p) => p.actor_id === membership.actor_id),
    );
    expect(listed).toEqual({ actor_id: bobActor.id, status: 'online', since: expect.stringMatching(TIMESTAMP) });
    expect(await watcher.waitForEvent(mine.presence, 'pusher:member_added')).toEqual({
      id: bobActor.id,
      info: { display_name: bobActor.display_name, avatar_id: null },
    });
    const came = await watcher.waitForEvent(
      mine.workspace,
      'presence.updated',
      (d) => (d.presence as Presence).actor_id === bobActor.id,
    );
    expect(came).toEqual({
      event_id: expect.stringMatching(UUID),
      presence: { actor_id: bobActor.id, status: 'online', since: listed.since },
    });

    await bobs.disconnect();
    await waitFor(
      'bob gone from /realtime/presence',
      async () => !(await online(alice, a.ws)).some((p) => p.actor_id === bobActor.id),
    );
    const left = await watcher.waitForEvent(
      mine.workspace,
      'presence.updated',
      (d) => (d.presence as Presence).actor_id === bobActor.id && (d.presence as Presence).status === 'offline',
    );
    expect(left).toEqual({
      event_id: expect.stringMatching(UUID),
      presence: { actor_id: bobActor.id, status: 'offline', since: expect.stringMatching(TIMESTAMP) },
    });
    expect(await watcher.waitForEvent(mine.presence, 'pusher:member_removed')).toEqual({
      id: bobActor.id,
      info: { display_name: bobActor.display_name, avatar_id: null },
    });
    // Alice, still connected, stays online.
    expect((await online(alice, a.ws)).map((p) => p.actor_id)).toEqual([a.actor.id]);
  });
});

describe('provider webhooks', () => {
  /** The cluster's realtime app as its processes have it: test mode makes a fresh one per cluster, told to no test. */
  function realtimeApp(): { key: string; secret: string } {
    // Every replica has the same app (the replicated project runs this file on two).
    const apps = serverPids('services/realtime/src/main.ts', inject('databaseUrl')).map((pid) => {
      const env = processEnvironment(pid);
      return { key: env.get('PUSHER_KEY')!, secret: env.get('PUSHER_SECRET')! };
    });
    expect(apps.length).toBeGreaterThanOrEqual(1);
    for (const app of apps) expect(app).toEqual(apps[0]);
    return apps[0]!;
  }

  const sign = (body: string, secret: string) => createHmac('sha256', secret).update(body).digest('hex');
  const deliver = (body: string, headers: Record<string, string>) =>
    api('POST', '/realtime/webhooks/pusher', { raw: body, headers });

  it('answers 401 invalid_signature to a bad signature or a wrong key, and 204 to one the provider signed', async () => {
    const a = await workspaceOf(alice, 'webhooks');
    const app = realtimeApp();
    expect((await realtimeConfig(alice, a.ws)).app_key).toBe(app.key);
    const body = JSON.stringify({
      time_ms: Date.now(),
      events: [{ name: 'channel_vacated', channel: `private-actor-${randomUUID()}` }],
    });

    expectError(
      await deliver(body, { 'X-Pusher-Key': app.key, 'X-Pusher-Signature': sign(body, 'wms-not-the-secret') }),
      401,
      'invalid_signature',
    );
    expectError(
      await deliver(body, { 'X-Pusher-Key': app.key, 'X-Pusher-Signature': sign(`${body} `, app.secret) }),
      401,
      'invalid_signature',
    );
    expectError(
      await deliver(body, { 'X-Pusher-Key': 'wms-not-the-key', 'X-Pusher-Signature': sign(body, app.secret) }),
      401,
      'invalid_signature',
    );
    expectError(await deliver(body, {}), 401, 'invalid_signature');

    const accepted = await deliver(body, { 'X-Pusher-Key': app.key, 'X-Pusher-Signature': sign(body, app.secret) });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(204);
    expect(accepted.body).toBe('');
  });
});

describe('catch-up after a disconnect', () => {
  interface Delivered {
    cursor: string;
    channel: string;
    event: string;
    data: Record<string, unknown>;
  }

  /** Every event after `after`, a page of `limit` at a time, following next_cursor until a page comes back empty. */
  async function catchUp(account: Account, ws: string, after: string, limit = 2): Promise<Delivered[]> {
    const all: Delivered[] = [];
    let cursor = after;
    for (;;) {
      const res = await inWorkspace(account, ws, 'GET', `/events?after=${cursor}&limit=${limit}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const page = res.body as { items: Delivered[]; next_cursor: string };
      expect(page.items.length).toBeLessThanOrEqual(limit);
      // A full page continues after its last item; one that is not full holds everything up to the newest event of
      // any workspace, and continues from there.
      if (page.items.length === limit) expect(page.next_cursor).toBe(page.items.at(-1)!.cursor);
      else expect(BigInt(page.next_cursor)).toBeGreaterThanOrEqual(BigInt(page.items.at(-1)?.cursor ?? cursor));
      all.push(...page.items);
      // Caught up once the cursor stays where it was.
      if (page.next_cursor === cursor) return all;
      cursor = page.next_cursor;
    }
  }

  it('returns exactly what a disconnected client missed, oldest first, as live clients received it, and nothing of other workspaces or actors', async () => {
    const a = await workspaceOf(alice, 'catch-up');
    const o = await workspaceOf(olga, 'catch-up-elsewhere');
    await addMember(alice, a.ws, bob);
    const mine = channels(a.ws, a.actor.id, a.conv);
    // Everything that happened before the client connects is stored before it takes its cursor: the members' and
    // channels' events relayed, and its own actor online (a presence change, stored with it).
    await recordedEvents('workspace', 'channel = $1', [mine.workspace]);
    await recordedEvents('messaging', 'channel = $1', [mine.workspace]);
    const live = await connectRealtime(alice, a.ws);
    await Promise.all([live.subscribe(mine.conversation), live.subscribe(mine.actor)]);
    await waitFor('alice online', async () => (await online(alice, a.ws)).some((p) => p.actor_id === a.actor.id));

    // The client that will miss things: connected alongside (so alice stays online), it takes the head and leaves.
    const leaving = await connectRealtime(alice, a.ws);
    await Promise.all([leaving.subscribe(mine.conversation), leaving.subscribe(mine.actor)]);
    const head = await inWorkspace(alice, a.ws, 'GET', '/events');
    expect(head.status, JSON.stringify(head.body)).toBe(200);
    const { items, next_cursor: cursor } = head.body as { items: unknown[]; next_cursor: string };
    expect(items).toEqual([]);
    expect(cursor).toMatch(/^\d+$/);
    await leaving.disconnect();

    const posted = await postText(bob, a.ws, a.conv, 'while you were away');
    expect(
      (
        await inWorkspace(
          bob,
          a.ws,
          'PUT',
          `/conversations/${a.conv}/messages/${posted.id}/reactions/${encodeURIComponent('🎉')}`,
        )
      ).status,
    ).toBe(200);
    expect(
      (
        await inWorkspace(alice, a.ws, 'PUT', `/conversations/${a.conv}/read-state`, {
          body: { last_read_message_id: posted.id },
        })
      ).status,
    ).toBe(200);
    const received = [
      await live.waitForEvent(mine.conversation, 'message.created', (d) => (d.message as MessageBody).id === posted.id),
      // Bob's first post made him a member (contract §9).
      await live.waitForEvent(mine.conversation, 'channel_member.added'),
      await live.waitForEvent(mine.conversation, 'reactions.updated'),
      await live.waitForEvent(mine.actor, 'read_state.updated'),
    ];

    const missed = await catchUp(alice, a.ws, cursor);
    expect(missed.map((e) => [e.channel, e.event])).toEqual([
      [mine.conversation, 'message.created'],
      [mine.conversation, 'channel_member.added'],
      [mine.conversation, 'reactions.updated'],
      [mine.actor, 'read_state.updated'],
    ]);
    // Each as it was triggered: what the live client received for the same event.
    expect(missed.map((e) => e.data)).toEqual(received);
    const cursors = missed.map((e) => BigInt(e.cursor));
    expect(cursors.every((c, i) => c > (i === 0 ? BigInt(cursor) : cursors[i - 1]!))).toBe(true);

    // A colleague sees the conversation's events, not alice's own channel.
    const colleagues = await catchUp(bob, a.ws, cursor, 100);
    expect(colleagues.map((e) => e.data.event_id)).toEqual(expect.arrayContaining(eventIds(received.slice(0, 3))));
    expect(colleagues.map((e) => e.data.event_id)).not.toContain(received[3]!.event_id);
    expect(colleagues.filter((e) => e.channel === mine.actor)).toEqual([]);
    // Another workspace's member sees none of it.
    const outsiders = await catchUp(olga, o.ws, cursor, 100);
    const hers = Object.values(channels(o.ws, o.actor.id, o.conv));
    expect(
      outsiders.filter((e) => eventIds(received).includes(String(e.data.event_id)) || !hers.includes(e.channel)),
    ).toEqual([]);

    for (const bad of ['abc', '-1', '1.5', '01', ' 1', '1e3']) {
      const err = expectError(
        await inWorkspace(alice, a.ws, 'GET', `/events?after=${encodeURIComponent(bad)}`),
        400,
        'invalid_input',
      );
      expect(err.details, bad).toEqual([expect.objectContaining({ field: 'query.after' })]);
    }
  });
});
