import { existsSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { type Account, expectError, signUp } from './support/accounts.ts';
import { sql } from './support/db.ts';
import { recordedEvents } from './support/events.ts';
import { api } from './support/http.ts';
import { multipart } from './support/images.ts';
import { createChannel, post, postText } from './support/messages.ts';
import {
  type ActorBody,
  addMember,
  createWorkspace,
  expectUnchanged,
  inWorkspace,
  myActor,
  uniqueSlug,
  type WorkspaceBody,
  type WorkspaceUserBody,
} from './support/workspaces.ts';

let owner: Account;
let admin: Account;
let member: Account;
let stranger: Account;

beforeAll(async () => {
  [owner, admin, member, stranger] = await Promise.all([
    signUp('ws-owner'),
    signUp('ws-admin'),
    signUp('ws-member'),
    signUp('ws-stranger'),
  ]);
});

async function team(): Promise<{ ws: WorkspaceBody; adminUser: WorkspaceUserBody; memberUser: WorkspaceUserBody }> {
  const ws = await createWorkspace(owner);
  const adminUser = await addMember(owner, ws.id, admin, 'admin');
  const memberUser = await addMember(owner, ws.id, member, 'member');
  return { ws, adminUser, memberUser };
}

describe('workspaces', () => {
  it('creates a workspace owned by the caller, with a user actor named after them', async () => {
    const slug = uniqueSlug('acme');
    const res = await api('POST', '/workspaces', { token: owner.token, body: { name: '  Acme  ', slug } });
    expect(res.status).toBe(201);
    const ws = res.body as WorkspaceBody;
    expect(Object.keys(ws).sort()).toEqual(['avatar_id', 'created_at', 'id', 'name', 'slug', 'updated_at']);
    expect(ws).toMatchObject({ name: 'Acme', slug, avatar_id: null });

    const users = (await inWorkspace(owner, ws.id, 'GET', '/workspace/users')).body as WorkspaceUserBody[];
    expect(users).toHaveLength(1);
    expect(users[0]).toMatchObject({
      role: 'owner',
      user_id: owner.userId,
      user: { id: owner.userId, email: owner.email, name: 'Test ws-owner' },
    });
    expect(users[0]!.accepted_at).not.toBeNull();
    const me = await myActor(owner, ws.id);
    expect(me).toMatchObject({
      id: users[0]!.actor_id,
      kind: 'user',
      user_id: owner.userId,
      display_name: 'Test ws-owner',
      title: null,
      managed_by_admins: false,
      deactivated_at: null,
    });
    expect((await inWorkspace(owner, ws.id, 'GET', '/workspace')).body).toEqual(ws);
  });

  it('validates name and slug and keeps slugs unique, deleted workspaces included', async () => {
    const bad = expectError(
      await api('POST', '/workspaces', { token: owner.token, body: { name: ' ', slug: 'No_Caps' } }),
      400,
      'invalid_input',
    );
    expect(bad.details?.map((d) => d.field).sort()).toEqual(['body.name', 'body.slug']);
    for (const slug of ['ab', '-abc', 'abc-', 'a'.repeat(41), 'has space']) {
      expectError(
        await api('POST', '/workspaces', { token: owner.token, body: { name: 'x', slug } }),
        400,
        'invalid_input',
      );
    }
    expectError(
      await api('POST', '/workspaces', { token: owner.token, body: { name: 'n'.repeat(81), slug: uniqueSlug() } }),
      400,
      'invalid_input',
    );
    expectError(
      await api('POST', '/workspaces', { token: owner.token, body: { slug: uniqueSlug() } }),
      400,
      'invalid_input',
    );

    const ws = await createWorkspace(owner);
    expectError(
      await api('POST', '/workspaces', { token: admin.token, body: { name: 'Copy', slug: ws.slug } }),
      409,
      'slug_taken',
    );
    expect((await inWorkspace(owner, ws.id, 'DELETE', '/workspace')).status).toBe(204);
    expectError(
      await api('POST', '/workspaces', { token: admin.token, body: { name: 'Copy', slug: ws.slug } }),
      409,
      'slug_taken',
    );
  });

  it('creates one workspace when the same slug is posted many times at once', async () => {
    const slug = uniqueSlug('race');
    const results = await Promise.all(
      Array.from({ length: 6 }, () => api('POST', '/workspaces', { token: owner.token, body: { name: 'Race', slug } })),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(5);
  });

  it("lists the caller's accepted, live workspaces oldest first", async () => {
    const first = await createWorkspace(stranger, 'First');
    const second = await createWorkspace(stranger, 'Second');
    const list = (await api('GET', '/workspaces', { token: stranger.token })).body as WorkspaceBody[];
    const mine = list.filter((w) => [first.id, second.id].includes(w.id)).map((w) => w.id);
    expect(mine).toEqual([first.id, second.id]);
    await inWorkspace(stranger, first.id, 'DELETE', '/workspace');
    const after = (await api('GET', '/workspaces', { token: stranger.token })).body as WorkspaceBody[];
    expect(after.map((w) => w.id)).not.toContain(first.id);
    expect(after.map((w) => w.id)).toContain(second.id);
  });

  it('updates name and slug for owners and admins; refused updates change nothing', async () => {
    const { ws } = await team();
    const renamed = await inWorkspace(admin, ws.id, 'PATCH', '/workspace', { body: { name: 'Renamed' } });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ id: ws.id, name: 'Renamed', slug: ws.slug });
    const slug = uniqueSlug('new');
    expect((await inWorkspace(owner, ws.id, 'PATCH', '/workspace', { body: { slug } })).body).toMatchObject({
      slug,
      name: 'Renamed',
    });
    const other = await createWorkspace(owner);
    await expectUnchanged(owner, ws.id, async () => {
      expectError(
        await inWorkspace(owner, ws.id, 'PATCH', '/workspace', { body: { slug: other.slug } }),
        409,
        'slug_taken',
      );
      expectError(
        await inWorkspace(owner, ws.id, 'PATCH', '/workspace', { body: { slug: 'X' } }),
        400,
        'invalid_input',
      );
      expectError(
        await inWorkspace(member, ws.id, 'PATCH', '/workspace', { body: { name: 'Nope' } }),
        403,
        'forbidden',
      );
      // Validation comes before the role check.
      expectError(
        await inWorkspace(member, ws.id, 'PATCH', '/workspace', { body: { name: '' } }),
        400,
        'invalid_input',
      );
    });
  });

  it('deletes a workspace for the owner only: 404 at once for everyone, then its data is purged', async () => {
    const { ws } = await team();
    await expectUnchanged(owner, ws.id, async () =>
      expectError(await inWorkspace(admin, ws.id, 'DELETE', '/workspace'), 403, 'forbidden'),
    );
    expect((await inWorkspace(owner, ws.id, 'DELETE', '/workspace')).status).toBe(204);
    for (const who of [owner, admin, member]) {
      expectError(await inWorkspace(who, ws.id, 'GET', '/workspace'), 404, 'workspace_not_found');
      expectError(await inWorkspace(who, ws.id, 'GET', '/workspace/users'), 404, 'workspace_not_found');
    }
    expectError(await inWorkspace(owner, ws.id, 'DELETE', '/workspace'), 404, 'workspace_not_found');
    const left = async () => {
      const [row] = await sql<{ members: string; actors: string }>(
        `SELECT (SELECT count(*) FROM workspace.workspace_users WHERE workspace_id = $1) AS members,
                (SELECT count(*) FROM workspace.actors WHERE workspace_id = $1) AS actors`,
        [ws.id],
      );
      return { members: Number(row!.members), actors: Number(row!.actors) };
    };
    await expect.poll(left, { timeout: 15_000 }).toEqual({ members: 0, actors: 0 });
  });
});

describe('purging a deleted workspace', () => {
  it('removes its channels, messages, reactions, saves, read state and assets with their bytes in every service', async () => {
    const { ws } = await team();
    const conv = await createChannel(owner, ws.id);
    const at = (path: string) => `/conversations/${conv}${path}`;
    const uploaded = async (name: string) => {
      const reserved = await inWorkspace(owner, ws.id, 'POST', at('/assets'), {
        body: { name, content_type: 'text/plain', size_bytes: 4 },
      });
      const id = (reserved.body as { id: string }).id;
      expect(
        (await inWorkspace(owner, ws.id, 'PUT', at(`/assets/${id}/content`), multipart(Buffer.from('data')))).status,
      ).toBe(200);
      return id;
    };
    const [attached, loose] = [await uploaded('kept.txt'), await uploaded('loose.txt')];
    const memberActor = await myActor(member, ws.id);
    const root = await post(owner, ws.id, conv, {
      body_text: 'root',
      asset_ids: [attached],
      mentioned_actor_ids: [memberActor.id],
      client_message_id: `k-${Math.random()}`,
    });
    const reply = await postText(member, ws.id, conv, 'reply', { parent_message_id: root.id });
    expect(
      (await inWorkspace(member, ws.id, 'PUT', at(`/messages/${root.id}/reactions/${encodeURIComponent('👍')}`)))
        .status,
    ).toBe(200);
    expect((await inWorkspace(member, ws.id, 'PUT', at(`/messages/${root.id}/saved`))).status).toBe(200);
    expect(
      (await inWorkspace(member, ws.id, 'PUT', at('/read-state'), { body: { last_read_message_id: root.id } })).status,
    ).toBe(200);
    expect(
      (
        await inWorkspace(owner, ws.id, 'PUT', `/threads/${root.id}/read-state`, {
          body: { last_read_message_id: reply.id },
        })
      ).status,
    ).toBe(200);
    const files = (
      await sql<{ storage_key: string }>('SELECT storage_key FROM asset.assets WHERE id = ANY ($1::uuid[])', [
        [attached, loose],
      ])
    ).map((r) => path.join(inject('storageDir'), r.storage_key));
    expect(files.map(existsSync)).toEqual([true, true]);

    const left = async () => {
      const [row] = await sql<Record<string, string>>(
        `SELECT (SELECT count(*) FROM messaging.channels WHERE workspace_id = $1) AS channels,
                (SELECT count(*) FROM messaging.messages WHERE workspace_id = $1) AS messages,
                (SELECT count(*) FROM messaging.reactions WHERE message_id = ANY ($2::uuid[])) AS reactions,
                (SELECT count(*) FROM messaging.mentions WHERE message_id = ANY ($2::uuid[])) AS mentions,
                (SELECT count(*) FROM messaging.saved_messages WHERE workspace_id = $1) AS saved,
                (SELECT count(*) FROM messaging.conversation_reads WHERE conversation_id = $3) AS conversation_reads,
                (SELECT count(*) FROM messaging.thread_reads WHERE workspace_id = $1) AS thread_reads,
                (SELECT count(*) FROM messaging.client_messages WHERE conversation_id = $3) AS client_ids,
                (SELECT count(*) FROM messaging.outbox WHERE workspace_id = $1) AS outbox,
                (SELECT count(*) FROM asset.assets WHERE workspace_id = $1) AS assets`,
        [ws.id, [root.id, reply.id], conv],
      );
      return Object.fromEntries(Object.entries(row!).map(([k, v]) => [k, Number(v)]));
    };
    // Everything is there before (but the outbox, whose rows the relay deletes once realtime has them).
    expect(Object.entries(await left()).filter(([k, n]) => n === 0 && k !== 'outbox')).toEqual([]);
    expect((await inWorkspace(owner, ws.id, 'DELETE', '/workspace')).status).toBe(204);
    await expect.poll(left, { timeout: 15_000 }).toEqual({
      channels: 0,
      messages: 0,
      reactions: 0,
      mentions: 0,
      saved: 0,
      conversation_reads: 0,
      thread_reads: 0,
      client_ids: 0,
      outbox: 0,
      assets: 0,
    });
    expect(files.map(existsSync)).toEqual([false, false]);
  });
});

describe('the X-Workspace-Id check', () => {
  it('answers 401, then 400 for a missing or malformed header, then 404 for a workspace the caller is not in', async () => {
    const { ws } = await team();
    expectError(await api('GET', '/workspace', { headers: { 'X-Workspace-Id': 'garbage' } }), 401, 'unauthenticated');
    expectError(await api('GET', '/workspace', { token: owner.token }), 400, 'invalid_workspace_header');
    expectError(await inWorkspace(owner, 'not-a-uuid', 'GET', '/workspace'), 400, 'invalid_workspace_header');
    expectError(
      await inWorkspace(owner, '00000000-0000-4000-8000-000000000000', 'GET', '/workspace'),
      404,
      'workspace_not_found',
    );
    expectError(await inWorkspace(stranger, ws.id, 'GET', '/workspace'), 404, 'workspace_not_found');
    expect((await inWorkspace(member, ws.id.toUpperCase(), 'GET', '/workspace')).status).toBe(200);
  });

  it('refuses a removed member on the very next request', async () => {
    const { ws, memberUser } = await team();
    expect((await inWorkspace(member, ws.id, 'GET', '/workspace/actors')).status).toBe(200);
    expect((await inWorkspace(owner, ws.id, 'DELETE', `/workspace/users/${memberUser.id}`)).status).toBe(204);
    expectError(await inWorkspace(member, ws.id, 'GET', '/workspace/actors'), 404, 'workspace_not_found');
  });
});

describe('workspace users', () => {
  it('adds existing accounts with the roles each caller may give', async () => {
    const ws = await createWorkspace(owner);
    const added = await inWorkspace(owner, ws.id, 'POST', '/workspace/users', {
      body: { email: admin.email.toUpperCase(), role: 'admin' },
    });
    expect(added.status).toBe(201);
    const adminUser = added.body as WorkspaceUserBody;
    expect(Object.keys(adminUser).sort()).toEqual([
      'accepted_at',
      'actor_id',
      'created_at',
      'id',
      'role',
      'updated_at',
      'user',
      'user_id',
      'workspace_id',
    ]);
    expect(adminUser).toMatchObject({
      workspace_id: ws.id,
      user_id: admin.userId,
      role: 'admin',
      user: { id: admin.userId, email: admin.email },
    });
    expect(adminUser.accepted_at).not.toBeNull();

    expectError(
      await inWorkspace(admin, ws.id, 'POST', '/workspace/users', { body: { email: member.email, role: 'admin' } }),
      403,
      'forbidden',
    );
    const byAdmin = await inWorkspace(admin, ws.id, 'POST', '/workspace/users', { body: { email: member.email } });
    expect(byAdmin.status).toBe(201);
    expect(byAdmin.body).toMatchObject({ role: 'member' });
    expectError(
      await inWorkspace(member, ws.id, 'POST', '/workspace/users', { body: { email: stranger.email } }),
      403,
      'forbidden',
    );

    expectError(
      await inWorkspace(owner, ws.id, 'POST', '/workspace/users', { body: { email: member.email } }),
      409,
      'already_member',
    );
    expectError(
      await inWorkspace(owner, ws.id, 'POST', '/workspace/users', { body: { email: 'nobody-here@example.test' } }),
      404,
      'account_not_found',
    );
    expectError(
      await inWorkspace(owner, ws.id, 'POST', '/workspace/users', { body: { email: stranger.email, role: 'owner' } }),
      400,
      'invalid_role',
    );
    expectError(
      await inWorkspace(owner, ws.id, 'POST', '/workspace/users', { body: { email: stranger.email, role: '' } }),
      400,
      'invalid_role',
    );
    expectError(
      await inWorkspace(owner, ws.id, 'POST', '/workspace/users', { body: { email: 'not an email' } }),
      400,
      'invalid_input',
    );

    const users = (await inWorkspace(member, ws.id, 'GET', '/workspace/users')).body as WorkspaceUserBody[];
    expect(users.map((u) => [u.user.email, u.role])).toEqual([
      [owner.email, 'owner'],
      [admin.email, 'admin'],
      [member.email, 'member'],
    ]);
    const actors = (await inWorkspace(member, ws.id, 'GET', '/workspace/actors')).body as ActorBody[];
    expect(actors.map((a) => a.user_id)).toEqual([owner.userId, admin.userId, member.userId]);
  });

  it('adds an account once when the same add arrives many times at once', async () => {
    const ws = await createWorkspace(owner);
    const results = await Promise.all(
      Array.from({ length: 6 }, () =>
        inWorkspace(owner, ws.id, 'POST', '/workspace/users', { body: { email: stranger.email } }),
      ),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(
      results
        .filter((r) => r.status === 409)
        .every((r) => (r.body as { error: { code: string } }).error.code === 'already_member'),
    ).toBe(true);
    const users = (await inWorkspace(owner, ws.id, 'GET', '/workspace/users')).body as WorkspaceUserBody[];
    expect(users.filter((u) => u.user_id === stranger.userId)).toHaveLength(1);
  });

  it("changes roles for the owner only, never the owner's own; refused changes change nothing", async () => {
    const { ws, memberUser } = await team();
    const owners = ((await inWorkspace(owner, ws.id, 'GET', '/workspace/users')).body as WorkspaceUserBody[]).filter(
      (u) => u.role === 'owner',
    );
    const promoted = await inWorkspace(owner, ws.id, 'PATCH', `/workspace/users/${memberUser.id}`, {
      body: { role: 'admin' },
    });
    expect(promoted.status).toBe(200);
    expect(promoted.body).toMatchObject({ id: memberUser.id, role: 'admin', user: { email: member.email } });
    // The promotion is visible on the member's very next request.
    expect(
      (await inWorkspace(member, ws.id, 'POST', '/workspace/actors', { body: { display_name: 'Bot' } })).status,
    ).toBe(201);

    await expectUnchanged(owner, ws.id, async () => {
      expectError(
        await inWorkspace(owner, ws.id, 'PATCH', `/workspace/users/${owners[0]!.id}`, { body: { role: 'member' } }),
        400,
        'owner_protected',
      );
      expectError(
        await inWorkspace(owner, ws.id, 'PATCH', `/workspace/users/${memberUser.id}`, { body: { role: 'owner' } }),
        400,
        'invalid_role',
      );
      expectError(
        await inWorkspace(owner, ws.id, 'PATCH', `/workspace/users/${memberUser.id}`, { body: { role: 'boss' } }),
        400,
        'invalid_role',
      );
      expectError(
        await inWorkspace(admin, ws.id, 'PATCH', `/workspace/users/${memberUser.id}`, { body: { role: 'member' } }),
        403,
        'forbidden',
      );
      expectError(
        await inWorkspace(owner, ws.id, 'PATCH', '/workspace/users/00000000-0000-4000-8000-000000000000', {
          body: { role: 'member' },
        }),
        404,
        'not_found',
      );
      expectError(
        await inWorkspace(owner, ws.id, 'PATCH', '/workspace/users/nope', { body: { role: 'member' } }),
        400,
        'invalid_input',
      );
    });
  });

  it('removes members by the rules, keeps their actor deactivated, and brings both back on a new add', async () => {
    const { ws, adminUser, memberUser } = await team();
    const ownerUser = ((await inWorkspace(owner, ws.id, 'GET', '/workspace/users')).body as WorkspaceUserBody[]).find(
      (u) => u.role === 'owner',
    )!;
    await expectUnchanged(owner, ws.id, async () => {
      expectError(
        await inWorkspace(owner, ws.id, 'DELETE', `/workspace/users/${ownerUser.id}`),
        400,
        'owner_protected',
      );
      expectError(
        await inWorkspace(member, ws.id, 'DELETE', `/workspace/users/${ownerUser.id}`),
        400,
        'owner_protected',
      );
      expectError(await inWorkspace(member, ws.id, 'DELETE', `/workspace/users/${adminUser.id}`), 403, 'forbidden');
      expectError(
        await inWorkspace(owner, ws.id, 'DELETE', '/workspace/users/00000000-0000-4000-8000-000000000000'),
        404,
        'not_found',
      );
    });

    expect((await inWorkspace(admin, ws.id, 'DELETE', `/workspace/users/${memberUser.id}`)).status).toBe(204);
    const gone = (await inWorkspace(owner, ws.id, 'GET', `/workspace/actors/${memberUser.actor_id}`)).body as ActorBody;
    expect(gone.deactivated_at).not.toBeNull();
    expect(
      ((await inWorkspace(owner, ws.id, 'GET', '/workspace/users')).body as WorkspaceUserBody[]).map((u) => u.id),
    ).not.toContain(memberUser.id);

    const back = await addMember(admin, ws.id, member);
    expect(back).toMatchObject({ id: memberUser.id, actor_id: memberUser.actor_id, role: 'member' });
    expect((await myActor(member, ws.id)).deactivated_at).toBeNull();

    // Anyone but the owner may leave.
    expect((await inWorkspace(admin, ws.id, 'DELETE', `/workspace/users/${adminUser.id}`)).status).toBe(204);
    expectError(await inWorkspace(admin, ws.id, 'GET', '/workspace'), 404, 'workspace_not_found');
    expect(
      ((await api('GET', '/workspaces', { token: admin.token })).body as WorkspaceBody[]).map((w) => w.id),
    ).not.toContain(ws.id);
    // Nor can ownership go to a removed member.
    await expectUnchanged(owner, ws.id, async () =>
      expectError(
        await inWorkspace(owner, ws.id, 'PUT', '/workspace/owner', { body: { workspace_user_id: adminUser.id } }),
        400,
        'invalid_ownership_target',
      ),
    );
  });

  it('transfers ownership to another accepted member; the previous owner becomes admin', async () => {
    const { ws, adminUser, memberUser } = await team();
    const ownerUser = ((await inWorkspace(owner, ws.id, 'GET', '/workspace/users')).body as WorkspaceUserBody[]).find(
      (u) => u.role === 'owner',
    )!;
    const other = await createWorkspace(stranger);
    const strangerUser = (
      (await inWorkspace(stranger, other.id, 'GET', '/workspace/users')).body as WorkspaceUserBody[]
    )[0]!;
    await expectUnchanged(owner, ws.id, async () => {
      expectError(
        await inWorkspace(admin, ws.id, 'PUT', '/workspace/owner', { body: { workspace_user_id: memberUser.id } }),
        403,
        'forbidden',
      );
      expectError(
        await inWorkspace(owner, ws.id, 'PUT', '/workspace/owner', { body: { workspace_user_id: ownerUser.id } }),
        400,
        'invalid_ownership_target',
      );
      expectError(
        await inWorkspace(owner, ws.id, 'PUT', '/workspace/owner', {
          body: { workspace_user_id: '00000000-0000-4000-8000-000000000000' },
        }),
        400,
        'invalid_ownership_target',
      );
      expectError(
        await inWorkspace(owner, ws.id, 'PUT', '/workspace/owner', { body: { workspace_user_id: 'x' } }),
        400,
        'invalid_input',
      );
      expectError(
        await inWorkspace(owner, ws.id, 'PUT', '/workspace/owner', { body: { workspace_user_id: strangerUser.id } }),
        400,
        'invalid_ownership_target',
      );
    });

    const moved = await inWorkspace(owner, ws.id, 'PUT', '/workspace/owner', {
      body: { workspace_user_id: memberUser.id },
    });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ id: memberUser.id, role: 'owner', user: { email: member.email } });
    const roles = Object.fromEntries(
      ((await inWorkspace(member, ws.id, 'GET', '/workspace/users')).body as WorkspaceUserBody[]).map((u) => [
        u.id,
        u.role,
      ]),
    );
    expect(roles).toEqual({ [ownerUser.id]: 'admin', [adminUser.id]: 'admin', [memberUser.id]: 'owner' });
    // The new roles hold on the next request: the old owner can no longer delete, the new one can.
    expectError(await inWorkspace(owner, ws.id, 'DELETE', '/workspace'), 403, 'forbidden');
    expect((await inWorkspace(member, ws.id, 'DELETE', '/workspace')).status).toBe(204);
  });

  it('keeps exactly one owner when a transfer races a role change or removal of the new owner', async () => {
    for (let round = 0; round < 6; round++) {
      const { ws, adminUser } = await team();
      const [transfer, demote, remove] = await Promise.all([
        inWorkspace(owner, ws.id, 'PUT', '/workspace/owner', { body: { workspace_user_id: adminUser.id } }),
        inWorkspace(owner, ws.id, 'PATCH', `/workspace/users/${adminUser.id}`, { body: { role: 'member' } }),
        inWorkspace(owner, ws.id, 'DELETE', `/workspace/users/${adminUser.id}`),
      ]);
      expect(
        [transfer.status, demote.status, remove.status].every((status) => [200, 204, 400, 403, 404].includes(status)),
      ).toBe(true);
      const users = (
        await sql<{ role: string }>(
          'SELECT role FROM workspace.workspace_users WHERE workspace_id = $1 AND removed_at IS NULL',
          [ws.id],
        )
      ).map((u) => u.role);
      expect(
        users.filter((role) => role === 'owner'),
        JSON.stringify({ transfer: transfer.status, demote: demote.status, remove: remove.status, users }),
      ).toHaveLength(1);
    }
  });
});

describe('workspace actors', () => {
  it("reads actors, and edits one's own profile with validation", async () => {
    const { ws, memberUser } = await team();
    const me = await myActor(member, ws.id);
    expect(me.id).toBe(memberUser.actor_id);
    expect((await inWorkspace(owner, ws.id, 'GET', `/workspace/actors/${me.id}`)).body).toEqual(me);
    expect((await inWorkspace(owner, ws.id, 'GET', `/workspace/actors/${me.id.toUpperCase()}`)).body).toEqual(me);
    expectError(await inWorkspace(owner, ws.id, 'GET', '/workspace/actors/not-a-uuid'), 404, 'not_found');
    expectError(
      await inWorkspace(owner, ws.id, 'GET', '/workspace/actors/00000000-0000-4000-8000-000000000000'),
      404,
      'not_found',
    );

    const edited = await inWorkspace(member, ws.id, 'PATCH', '/workspace/actors/me', {
      body: { display_name: '  Mem  ', title: 'Engineer' },
    });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ id: me.id, display_name: 'Mem', title: 'Engineer' });
    expect(
      (await inWorkspace(member, ws.id, 'PATCH', `/workspace/actors/${me.id}`, { body: { title: null } })).body,
    ).toMatchObject({ display_name: 'Mem', title: null });
    await expectUnchanged(owner, ws.id, async () => {
      const bad = expectError(
        await inWorkspace(member, ws.id, 'PATCH', '/workspace/actors/me', {
          body: { display_name: '', title: 't'.repeat(121) },
        }),
        400,
        'invalid_input',
      );
      expect(bad.details?.map((d) => d.field).sort()).toEqual(['body.display_name', 'body.title']);
      expectError(
        await inWorkspace(admin, ws.id, 'PATCH', `/workspace/actors/${me.id}`, { body: { title: 'Boss says' } }),
        403,
        'forbidden',
      );
    });
  });

  it('lets owners and admins create and edit agents managed by admins', async () => {
    const { ws } = await team();
    const created = await inWorkspace(admin, ws.id, 'POST', '/workspace/actors', {
      body: { display_name: 'Deploy bot', title: 'CI' },
    });
    expect(created.status).toBe(201);
    const agent = created.body as ActorBody;
    expect(agent).toMatchObject({
      kind: 'agent',
      user_id: null,
      display_name: 'Deploy bot',
      title: 'CI',
      managed_by_admins: true,
      workspace_id: ws.id,
    });
    expect(
      (
        await inWorkspace(owner, ws.id, 'PATCH', `/workspace/actors/${agent.id}`, {
          body: { display_name: 'Release bot' },
        })
      ).body,
    ).toMatchObject({ display_name: 'Release bot' });
    await expectUnchanged(owner, ws.id, async () => {
      expectError(
        await inWorkspace(member, ws.id, 'POST', '/workspace/actors', { body: { display_name: 'Mine' } }),
        403,
        'forbidden',
      );
      expectError(
        await inWorkspace(admin, ws.id, 'POST', '/workspace/actors', { body: { display_name: '' } }),
        400,
        'invalid_input',
      );
      expectError(
        await inWorkspace(member, ws.id, 'PATCH', `/workspace/actors/${agent.id}`, {
          body: { display_name: 'Hijack' },
        }),
        403,
        'forbidden',
      );
    });
    expect(
      ((await inWorkspace(member, ws.id, 'GET', '/workspace/actors')).body as ActorBody[]).map((a) => a.id),
    ).toContain(agent.id);
  });

  it("never shows another workspace's actors", async () => {
    const { ws } = await team();
    const other = await createWorkspace(stranger);
    const strangerActor = await myActor(stranger, other.id);
    expectError(await inWorkspace(owner, ws.id, 'GET', `/workspace/actors/${strangerActor.id}`), 404, 'not_found');
    expectError(
      await inWorkspace(owner, ws.id, 'PATCH', `/workspace/actors/${strangerActor.id}`, { body: { title: 'x' } }),
      404,
      'not_found',
    );
    expect((await myActor(stranger, other.id)).title).toBeNull();
  });
});

describe('events', () => {
  it('records each change on the workspace channel, the resource as the API answers it, relayed in order', async () => {
    const ws = await createWorkspace(owner);
    const renamed = (await inWorkspace(owner, ws.id, 'PATCH', '/workspace', { body: { name: 'Evented' } }))
      .body as WorkspaceBody;
    expectError(
      await inWorkspace(member, ws.id, 'PATCH', '/workspace', { body: { name: 'Refused' } }),
      404,
      'workspace_not_found',
    );
    const added = await addMember(owner, ws.id, member);
    const promoted = (
      await inWorkspace(owner, ws.id, 'PATCH', `/workspace/users/${added.id}`, { body: { role: 'admin' } })
    ).body as WorkspaceUserBody;
    const profile = (await inWorkspace(member, ws.id, 'PATCH', '/workspace/actors/me', { body: { title: 'Evented' } }))
      .body as ActorBody;
    expect((await inWorkspace(owner, ws.id, 'DELETE', `/workspace/users/${added.id}`)).status).toBe(204);
    const gone = (await inWorkspace(owner, ws.id, 'GET', `/workspace/actors/${added.actor_id}`)).body as ActorBody;

    const events = await recordedEvents<Record<string, unknown> & { event_id: string }>('workspace', 'channel = $1', [
      `private-workspace-${ws.id}`,
    ]);
    expect(events.map((e) => e.event)).toEqual([
      'workspace.updated',
      'actor.updated',
      'workspace_user.added',
      'workspace_user.updated',
      'actor.updated',
      'workspace_user.removed',
      'actor.updated',
    ]);
    expect(new Set(events.map((e) => e.payload.event_id)).size).toBe(events.length);
    for (const e of events)
      expect(e.payload.event_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(events.map((e) => Object.keys(e.payload).sort())).toEqual(
      ['workspace', 'actor', 'workspace_user', 'workspace_user', 'actor', 'workspace_user', 'actor'].map((resource) =>
        ['event_id', resource].sort(),
      ),
    );
    expect(events[0]!.payload.workspace).toEqual(renamed);
    expect(events[2]!.payload.workspace_user).toEqual(added);
    expect(events[3]!.payload.workspace_user).toEqual(promoted);
    expect(events[4]!.payload.actor).toEqual(profile);
    expect(events[5]!.payload.workspace_user).toMatchObject({ id: added.id, role: 'admin', user: added.user });
    expect(events[6]!.payload.actor).toEqual(gone);
  });
});
