import { randomUUID } from 'node:crypto';
import { DomainError, notFound, unavailable } from '@wms/kit/errors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MessagingClient, WorkspaceClient } from '../src/adapters/peers.ts';
import { ctxOf, newCaller, type Realtime, startRealtime } from './harness.ts';
import { connectClient, startSoketi, subscribed, type TestSoketi } from './support.ts';

let soketi: TestSoketi;
let rt: Realtime;

/** Conversations messaging knows, by id: the workspace each is in; `down` makes messaging unreachable. */
const conversations = new Map<string, string>();
const messagingState = { down: false };
const messaging = {
  GetChannel: async ({ channel_id }: { channel_id: string }, ctx: { workspaceId?: string }) => {
    if (messagingState.down) throw unavailable();
    const workspaceId = conversations.get(channel_id);
    // As messaging does: another workspace's conversation is not found.
    if (!workspaceId || workspaceId !== ctx.workspaceId) throw notFound('The channel does not exist.');
    return { id: channel_id, workspace_id: workspaceId };
  },
} as unknown as MessagingClient;

const profiles = new Map<string, { display_name: string; avatar_id?: string }>();
const workspace = {
  GetActorsByIds: async ({ ids }: { ids: string[] }) => ({
    actors: ids.flatMap((id) => (profiles.has(id) ? [{ id, ...profiles.get(id)! }] : [])),
  }),
} as unknown as WorkspaceClient;

beforeAll(async () => {
  soketi = await startSoketi();
  rt = await startRealtime({ provider: soketi.settings, messaging, workspace });
});

afterAll(async () => {
  await rt?.close();
  await soketi?.destroy();
});

async function refusal(p: Promise<unknown>): Promise<DomainError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(DomainError);
  return err as DomainError;
}

describe('GetRealtimeConfig', () => {
  it('points clients at the gateway, which proxies the self-hosted provider', async () => {
    expect(await rt.client.GetRealtimeConfig({}, ctxOf(newCaller()))).toEqual({
      app_key: soketi.settings.key,
      cluster: 'mt1',
      ws_host: 'gateway.test',
      ws_port: 8080,
      wss_port: 8080,
      ws_path: '/realtime/ws',
      force_tls: false,
    });
  });
});

describe('AuthorizeChannel', () => {
  it("allows the caller's workspace channel and its own actor channel, without channel data", async () => {
    const me = newCaller();
    for (const channel of [`private-workspace-${me.workspaceId}`, `private-actor-${me.actorId}`]) {
      const res = await rt.client.AuthorizeChannel({ socket_id: '123.456', channel_name: channel }, ctxOf(me));
      expect(res.auth).toMatch(new RegExp(`^${soketi.settings.key}:[0-9a-f]{64}$`));
      expect(res.channel_data).toBeUndefined();
    }
  });

  it('allows a conversation of the workspace only', async () => {
    const me = newCaller();
    const ours = randomUUID();
    const theirs = randomUUID();
    conversations.set(ours, me.workspaceId);
    conversations.set(theirs, randomUUID());
    expect(
      (await rt.client.AuthorizeChannel({ socket_id: '1.2', channel_name: `private-conversation-${ours}` }, ctxOf(me)))
        .auth,
    ).toBeTruthy();
    for (const id of [theirs, randomUUID()]) {
      expect(
        await refusal(
          rt.client.AuthorizeChannel({ socket_id: '1.2', channel_name: `private-conversation-${id}` }, ctxOf(me)),
        ),
      ).toMatchObject({
        kind: 'permission_denied',
        code: 'forbidden',
      });
    }
  });

  it('forbids every other channel', async () => {
    const me = newCaller();
    const other = newCaller();
    for (const channel of [
      `private-workspace-${other.workspaceId}`,
      `presence-workspace-${other.workspaceId}`,
      `private-actor-${other.actorId}`,
      `private-actor-${me.actorId.toUpperCase()}`,
      `#server-to-user-${me.actorId}`,
      `workspace-${me.workspaceId}`,
      `private-conversation-not-a-uuid`,
      'private-encrypted-x',
    ]) {
      expect(
        await refusal(rt.client.AuthorizeChannel({ socket_id: '1.2', channel_name: channel }, ctxOf(me))),
        channel,
      ).toMatchObject({
        kind: 'permission_denied',
        code: 'forbidden',
      });
    }
  });

  it('refuses a malformed socket id with 400 on body.socket_id, before looking at the channel', async () => {
    const me = newCaller();
    for (const socket of ['', '123', 'abc.def', '1.2.3', '1.2 ']) {
      const err = await refusal(rt.client.AuthorizeChannel({ socket_id: socket, channel_name: 'anything' }, ctxOf(me)));
      expect(err).toMatchObject({ kind: 'invalid_argument', code: 'invalid_input' });
      expect(err.details).toEqual([{ field: 'body.socket_id', message: expect.any(String) }]);
    }
  });

  it('answers unavailable, not forbidden, when messaging cannot be asked', async () => {
    const me = newCaller();
    const id = randomUUID();
    conversations.set(id, me.workspaceId);
    messagingState.down = true;
    try {
      expect(
        await refusal(
          rt.client.AuthorizeChannel({ socket_id: '1.2', channel_name: `private-conversation-${id}` }, ctxOf(me)),
        ),
      ).toMatchObject({ code: 'unavailable' });
    } finally {
      messagingState.down = false;
    }
  });

  it("gives presence channel data with the caller's actor, its display name and avatar", async () => {
    const me = newCaller();
    const avatarId = randomUUID();
    profiles.set(me.actorId, { display_name: 'Ada', avatar_id: avatarId });
    const res = await rt.client.AuthorizeChannel(
      { socket_id: '5.6', channel_name: `presence-workspace-${me.workspaceId}` },
      ctxOf(me),
    );
    expect(JSON.parse(res.channel_data!)).toEqual({
      user_id: me.actorId,
      user_info: { display_name: 'Ada', avatar_id: avatarId },
    });
    const bare = newCaller();
    profiles.set(bare.actorId, { display_name: 'Bo' });
    const plain = await rt.client.AuthorizeChannel(
      { socket_id: '5.6', channel_name: `presence-workspace-${bare.workspaceId}` },
      ctxOf(bare),
    );
    expect(JSON.parse(plain.channel_data!)).toEqual({
      user_id: bare.actorId,
      user_info: { display_name: 'Bo', avatar_id: null },
    });
  });

  it("remembers the actor's workspace, for the occupancy of its actor channel", async () => {
    const me = newCaller();
    await rt.client.AuthorizeChannel({ socket_id: '1.2', channel_name: `private-actor-${me.actorId}` }, ctxOf(me));
    expect(await rt.db('actor_workspaces').where({ actor_id: me.actorId }).first()).toEqual({
      actor_id: me.actorId,
      workspace_id: me.workspaceId,
    });
  });

  it('refuses a call without a member (the gateway always sends one)', async () => {
    expect(
      await refusal(rt.client.AuthorizeChannel({ socket_id: '1.2', channel_name: 'x' }, { requestId: 'r' })),
    ).toMatchObject({ code: 'workspace_not_found' });
  });
});

describe('AuthenticateUser', () => {
  it("signs the caller's actor as the provider's user", async () => {
    const me = newCaller();
    const res = await rt.client.AuthenticateUser({ socket_id: '77.88' }, ctxOf(me));
    expect(JSON.parse(res.user_data)).toEqual({ id: me.actorId });
    expect(res.auth).toMatch(new RegExp(`^${soketi.settings.key}:[0-9a-f]{64}$`));
    const err = await refusal(rt.client.AuthenticateUser({ socket_id: 'nope' }, ctxOf(me)));
    expect(err.details?.[0]?.field).toBe('body.socket_id');
  });
});

describe('signatures as the provider checks them (Soketi and pusher-js)', () => {
  it('lets a client subscribe to what it may, presence included, and refuses the rest', async () => {
    const me = newCaller();
    profiles.set(me.actorId, { display_name: 'Cy' });
    const conversationId = randomUUID();
    conversations.set(conversationId, me.workspaceId);
    const client = connectClient(soketi, async (socket, channel) => {
      const res = await rt.client.AuthorizeChannel({ socket_id: socket, channel_name: channel }, ctxOf(me));
      return { auth: res.auth, ...(res.channel_data ? { channel_data: res.channel_data } : {}) };
    });
    try {
      await subscribed(client, `private-workspace-${me.workspaceId}`);
      await subscribed(client, `private-actor-${me.actorId}`);
      await subscribed(client, `private-conversation-${conversationId}`);
      const presence = (await subscribed(client, `presence-workspace-${me.workspaceId}`)) as unknown as {
        members: { me: { id: string; info: unknown } };
      };
      expect(presence.members.me).toEqual({ id: me.actorId, info: { display_name: 'Cy', avatar_id: null } });
      await expect(subscribed(client, `private-workspace-${randomUUID()}`)).rejects.toThrow('subscription refused');
    } finally {
      client.disconnect();
    }
  });

  it('signs a user sign-in the provider accepts', async () => {
    const me = newCaller();
    const client = connectClient(
      soketi,
      async () => Promise.reject(new Error('no channels here')),
      (socket) => rt.client.AuthenticateUser({ socket_id: socket }, ctxOf(me)),
    );
    try {
      client.signin();
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('signin did not complete')), 10_000);
        void client.user.signinDonePromise.then(() => {
          clearTimeout(timer);
          resolve();
        });
      });
      expect(client.user.user_data).toMatchObject({ id: me.actorId });
    } finally {
      client.disconnect();
    }
  });
});
