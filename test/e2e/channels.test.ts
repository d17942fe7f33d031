import { beforeAll, describe, expect, it } from 'vitest';
import { type Account, expectError, signUp } from './support/accounts.ts';
import { recordedEvents } from './support/events.ts';
import { addMember, createWorkspace, inWorkspace, myActor, type WorkspaceBody } from './support/workspaces.ts';

interface ChannelBody {
  id: string;
  workspace_id: string;
  conversation_id: string;
  name: string;
  topic: string | null;
  created_by_actor_id: string;
}

let owner: Account;
let member: Account;
let stranger: Account;
let ws: WorkspaceBody;

beforeAll(async () => {
  [owner, member, stranger] = await Promise.all([signUp('ch-owner'), signUp('ch-member'), signUp('ch-stranger')]);
  ws = await createWorkspace(owner);
  await addMember(owner, ws.id, member);
});

const unique = (tag: string) => `${tag}-${Math.random().toString(36).slice(2, 8)}`;

describe('channels', () => {
  it('lets any member create a channel, addressed as a conversation with the same id', async () => {
    const name = unique('general');
    const res = await inWorkspace(member, ws.id, 'POST', '/channels', { body: { name, topic: '  Everything  ' } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const channel = res.body as ChannelBody;
    expect(Object.keys(channel).sort()).toEqual([
      'archived_at',
      'conversation_id',
      'created_at',
      'created_by_actor_id',
      'id',
      'is_member',
      'kind',
      'last_message_at',
      'member_count',
      'name',
      'participant_actor_ids',
      'topic',
      'updated_at',
      'workspace_id',
    ]);
    expect(channel).toMatchObject({
      name,
      topic: 'Everything',
      workspace_id: ws.id,
      conversation_id: channel.id,
      created_by_actor_id: (await myActor(member, ws.id)).id,
      kind: 'public',
      member_count: 1,
      is_member: true,
      participant_actor_ids: [],
      last_message_at: null,
      archived_at: null,
    });
    // Public: every member reads it; is_member is the caller's own.
    expect((await inWorkspace(owner, ws.id, 'GET', `/channels/${channel.id}`)).body).toEqual({
      ...channel,
      is_member: false,
    });

    // The change was recorded with it and relayed to realtime.
    const events = await recordedEvents<{ channel: ChannelBody; event_id: string }>(
      'messaging',
      `payload -> 'channel' ->> 'id' = $1`,
      [channel.id],
    );
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      event: 'channel.created',
      channel: `private-workspace-${ws.id}`,
      payload: { channel: { id: channel.id, name } },
    });
    expect(events[0]!.payload.event_id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('validates names and topics and keeps names unique in the workspace', async () => {
    for (const name of ['', 'Caps', '-dash', 'sp ace', 'x'.repeat(81)]) {
      const e = expectError(
        await inWorkspace(owner, ws.id, 'POST', '/channels', { body: { name } }),
        400,
        'invalid_input',
      );
      expect(e.details?.[0]?.field).toBe('body.name');
    }
    expectError(
      await inWorkspace(owner, ws.id, 'POST', '/channels', { body: { name: unique('t'), topic: 't'.repeat(251) } }),
      400,
      'invalid_input',
    );
    expectError(await inWorkspace(owner, ws.id, 'POST', '/channels', { body: {} }), 400, 'invalid_input');
    const name = unique('taken');
    expect((await inWorkspace(owner, ws.id, 'POST', '/channels', { body: { name } })).status).toBe(201);
    expectError(await inWorkspace(member, ws.id, 'POST', '/channels', { body: { name } }), 409, 'channel_name_taken');
    // Another workspace may use the same name.
    const other = await createWorkspace(stranger);
    expect((await inWorkspace(stranger, other.id, 'POST', '/channels', { body: { name } })).status).toBe(201);
  });

  it('creates one channel when the same name is posted many times at once', async () => {
    const name = unique('race');
    const results = await Promise.all(
      Array.from({ length: 8 }, () => inWorkspace(owner, ws.id, 'POST', '/channels', { body: { name } })),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(7);
  });

  it('lists channels by name in byte order', async () => {
    const fresh = await createWorkspace(owner);
    for (const name of ['beta', 'alpha', 'a_b', 'a-b', '0zero', 'b']) {
      expect((await inWorkspace(owner, fresh.id, 'POST', '/channels', { body: { name } })).status).toBe(201);
    }
    const names = ((await inWorkspace(owner, fresh.id, 'GET', '/channels')).body as ChannelBody[]).map((c) => c.name);
    expect(names).toEqual(['0zero', 'a-b', 'a_b', 'alpha', 'b', 'beta']);
  });

  it("never shows another workspace's channels", async () => {
    const other = await createWorkspace(stranger);
    const theirs = (await inWorkspace(stranger, other.id, 'POST', '/channels', { body: { name: unique('secret') } }))
      .body as ChannelBody;
    expectError(await inWorkspace(owner, ws.id, 'GET', `/channels/${theirs.id}`), 404, 'not_found');
    expect(
      ((await inWorkspace(owner, ws.id, 'GET', '/channels')).body as ChannelBody[]).map((c) => c.id),
    ).not.toContain(theirs.id);
    expectError(await inWorkspace(owner, other.id, 'GET', `/channels/${theirs.id}`), 404, 'workspace_not_found');
    expectError(await inWorkspace(owner, ws.id, 'GET', '/channels/not-a-uuid'), 400, 'invalid_input');
    expectError(
      await inWorkspace(owner, ws.id, 'GET', '/channels/00000000-0000-4000-8000-000000000000'),
      404,
      'not_found',
    );
  });
});
