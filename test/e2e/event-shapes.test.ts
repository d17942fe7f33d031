import { waitFor } from '@wms/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Account, signUp } from './support/accounts.ts';
import { sql } from './support/db.ts';
import { recordedEvents } from './support/events.ts';
import type { ApiResponse } from './support/http.ts';
import { multipart } from './support/images.ts';
import { connectRealtime, disconnectAll } from './support/realtime.ts';
import { addMember, createWorkspace, inWorkspace } from './support/workspaces.ts';

// Every resource that clients receive in a realtime event reads the same there as in the HTTP answer about the same
// change, field for field (contract §7): both are made by one function per resource (@wms/protos/public).

let owner: Account;
let member: Account;
let ws: string;
let memberActor: string;

beforeAll(async () => {
  [owner, member] = await Promise.all([signUp('shape-owner'), signUp('shape-member')]);
  ws = (await createWorkspace(owner)).id;
  memberActor = (await addMember(owner, ws, member)).actor_id;
});

afterAll(disconnectAll);

const as = (account: Account, method: string, path: string, body?: unknown) =>
  inWorkspace(account, ws, method, path, body === undefined ? {} : { body });

const ok = (res: ApiResponse, status = 200) => {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  return res.body as Record<string, unknown>;
};

/** The resource (`key` of the payload) of the only event of that name whose resource has that id field. */
async function eventResource(
  source: 'messaging' | 'workspace',
  event: string,
  key: string,
  where: Record<string, string>,
): Promise<Record<string, unknown>> {
  const [field, value] = Object.entries(where)[0]!;
  const events = await recordedEvents(source, `event = $1 AND payload -> '${key}' ->> '${field}' = $2`, [event, value]);
  expect(events.length, `${event} events`).toBeGreaterThan(0);
  return events.at(-1)!.payload[key] as Record<string, unknown>;
}

describe('realtime events carry each resource as HTTP answers it', () => {
  it('workspace.updated, actor.updated and workspace_user.added/updated/removed', async () => {
    const workspace = ok(await as(owner, 'PATCH', '/workspace', { name: 'Shapes renamed' }));
    expect(await eventResource('workspace', 'workspace.updated', 'workspace', { id: ws })).toEqual(workspace);

    const actor = ok(await as(member, 'PATCH', '/workspace/actors/me', { display_name: 'Shape', title: 'Tester' }));
    expect(await eventResource('workspace', 'actor.updated', 'actor', { id: memberActor })).toEqual(actor);

    const third = await signUp('shape-third');
    const added = ok(await as(owner, 'POST', '/workspace/users', { email: third.email, role: 'member' }), 201);
    const id = { id: added.id as string };
    expect(await eventResource('workspace', 'workspace_user.added', 'workspace_user', id)).toEqual(added);
    const updated = ok(await as(owner, 'PATCH', `/workspace/users/${id.id}`, { role: 'admin' }));
    expect(await eventResource('workspace', 'workspace_user.updated', 'workspace_user', id)).toEqual(updated);
    const listed = (ok(await as(owner, 'GET', '/workspace/users')) as unknown as Array<{ id: string }>).find(
      (u) => u.id === id.id,
    );
    ok(await as(owner, 'DELETE', `/workspace/users/${id.id}`), 204);
    // The removal has no body; its event carries the member as listed, stamped at the removal.
    const removed = await eventResource('workspace', 'workspace_user.removed', 'workspace_user', id);
    expect(removed).toEqual({ ...listed, updated_at: expect.any(String) });
    expect(Date.parse(removed.updated_at as string)).toBeGreaterThanOrEqual(Date.parse(updated.updated_at as string));
  });

  it('channel.created/updated (public: without is_member; private: with it) and channel_member.added/removed', async () => {
    const pub = ok(await as(owner, 'POST', '/channels', { name: `shape-${Date.now()}` }), 201);
    const { is_member: _, ...shared } = pub;
    expect(await eventResource('messaging', 'channel.created', 'channel', { id: pub.id as string })).toEqual(shared);
    const renamed = ok(await as(owner, 'PATCH', `/channels/${pub.id as string}`, { topic: 'shapes' }));
    const { is_member: __, ...renamedShared } = renamed;
    expect(await eventResource('messaging', 'channel.updated', 'channel', { id: pub.id as string })).toEqual(
      renamedShared,
    );

    const priv = ok(await as(owner, 'POST', '/channels', { name: `shape-p-${Date.now()}`, kind: 'private' }), 201);
    expect(await eventResource('messaging', 'channel.created', 'channel', { id: priv.id as string })).toEqual(priv);

    const added = ok(await as(owner, 'PUT', `/channels/${priv.id as string}/members/${memberActor}`));
    const member = { actor_id: memberActor };
    expect(await eventResource('messaging', 'channel_member.added', 'member', member)).toEqual(added);
    ok(await as(owner, 'DELETE', `/channels/${priv.id as string}/members/${memberActor}`), 204);
    expect(await eventResource('messaging', 'channel_member.removed', 'member', member)).toEqual(added);
  });

  it('message.created/updated/deleted (with an attachment), thread.updated, reactions.updated, saved.updated and read_state.updated', async () => {
    const conv = ok(await as(owner, 'POST', '/channels', { name: `shape-m-${Date.now()}` }), 201).id as string;
    const base = `/conversations/${conv}`;
    const bytes = Buffer.from('shape of an attachment');
    const asset = ok(
      await as(owner, 'POST', `${base}/assets`, {
        name: 'a.txt',
        content_type: 'text/plain',
        size_bytes: bytes.length,
      }),
      201,
    );
    ok(await inWorkspace(owner, ws, 'PUT', `${base}/assets/${asset.id as string}/content`, multipart(bytes)));
    const created = ok(
      await as(owner, 'POST', `${base}/messages`, { body_text: 'shapes', asset_ids: [asset.id] }),
      201,
    );
    const id = { id: created.id as string };
    expect((created.assets as unknown[]).length).toBe(1);
    expect(await eventResource('messaging', 'message.created', 'message', id)).toEqual(created);
    const edited = ok(await as(owner, 'PATCH', `${base}/messages/${id.id}`, { body_text: 'shapes, edited' }));
    expect(await eventResource('messaging', 'message.updated', 'message', id)).toEqual(edited);

    const reply = ok(
      await as(member, 'POST', `${base}/messages`, { body_text: 'a reply', parent_message_id: id.id }),
      201,
    );
    const root = ok(await as(owner, 'GET', `${base}/messages/${id.id}`));
    const [thread] = await recordedEvents('messaging', `event = 'thread.updated' AND payload ->> 'root_id' = $1`, [
      id.id,
    ]);
    expect(thread!.payload).toEqual({
      event_id: expect.any(String),
      conversation_id: conv,
      root_id: id.id,
      reply_count: root.reply_count,
      reply_actor_ids: root.reply_actor_ids,
      last_reply_at: root.last_reply_at,
    });
    expect(root.last_reply_at).toBe(reply.created_at);

    const reactions = ok(await as(member, 'PUT', `${base}/messages/${id.id}/reactions/${encodeURIComponent('👍')}`));
    const [reacted] = await recordedEvents(
      'messaging',
      `event = 'reactions.updated' AND payload -> 'reactions' ->> 'message_id' = $1`,
      [id.id],
    );
    expect(reacted!.payload.reactions).toEqual(reactions);

    const saved = ok(await as(owner, 'PUT', `${base}/messages/${id.id}/saved`));
    const [bookmark] = await recordedEvents(
      'messaging',
      `event = 'saved.updated' AND payload -> 'saved' ->> 'message_id' = $1`,
      [id.id],
    );
    expect(bookmark!.payload.saved).toEqual(saved);

    const read = ok(await as(member, 'PUT', `${base}/read-state`, { last_read_message_id: id.id }));
    const [marked] = await recordedEvents(
      'messaging',
      `event = 'read_state.updated' AND channel = $1 AND payload -> 'read_state' ->> 'conversation_id' = $2`,
      [`private-actor-${memberActor}`, conv],
    );
    expect(marked!.payload.read_state).toEqual(read);

    ok(await as(owner, 'DELETE', `${base}/messages/${id.id}`), 204);
    const deleted = ok(await as(owner, 'GET', `${base}/messages/${id.id}`));
    expect(deleted.deleted_at).not.toBeNull();
    // The event's message is every member's (contract §4): the owner's bookmark is not in it.
    expect(await eventResource('messaging', 'message.deleted', 'message', id)).toEqual({ ...deleted, saved_at: null });
  });

  it('presence.updated', async () => {
    const client = await connectRealtime(member, ws);
    await client.subscribe(client.config.channels.actor);
    const listed = await waitFor('the member in /realtime/presence', async () =>
      (ok(await as(owner, 'GET', '/realtime/presence')) as unknown as Array<{ actor_id: string }>).find(
        (p) => p.actor_id === memberActor,
      ),
    );
    const [event] = await waitFor('presence.updated recorded', async () => {
      const rows = await sql<{ data: { presence: unknown } }>(
        `SELECT data FROM realtime.events WHERE name = 'presence.updated' AND data -> 'presence' ->> 'actor_id' = $1`,
        [memberActor],
      );
      return rows.length ? rows : undefined;
    });
    expect(event!.data.presence).toEqual(listed);
    await client.disconnect();
  });
});
