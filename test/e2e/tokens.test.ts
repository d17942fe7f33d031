import { beforeAll, describe, expect, it } from 'vitest';
import { type Account, expectError, signUp } from './support/accounts.ts';
import { type ActorBody, addMember, createWorkspace, inWorkspace, myActor } from './support/workspaces.ts';

// Integration credentials (contract §11), the routes that make, list and revoke them. (Being built, issue 23: using
// a token is the next step.)

interface TokenBody {
  id: string;
  kind: string;
  workspace_id: string;
  conversation_id: string | null;
  actor_id: string;
  name: string;
  token_prefix: string;
  created_by_actor_id: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
  token: string | null;
}

let owner: Account;
let admin: Account;
let member: Account;
let stranger: Account;
let ws: string;
let agent: ActorBody;

const tokens = (who: Account, workspaceId = ws) => inWorkspace(who, workspaceId, 'GET', '/workspace/tokens');
const listed = async () => {
  const res = await tokens(owner);
  expect(res.status).toBe(200);
  return res.body as TokenBody[];
};
const create = (who: Account, body: Record<string, unknown>) =>
  inWorkspace(who, ws, 'POST', '/workspace/tokens', { body });

beforeAll(async () => {
  [owner, admin, member, stranger] = (await Promise.all(
    ['owner', 'admin', 'member', 'stranger'].map((t) => signUp(`tokens-${t}`)),
  )) as [Account, Account, Account, Account];
  ws = (await createWorkspace(owner)).id;
  await addMember(owner, ws, admin, 'admin');
  await addMember(owner, ws, member);
  agent = (await inWorkspace(owner, ws, 'POST', '/workspace/actors', { body: { display_name: 'Deploy bot' } }))
    .body as ActorBody;
});

describe('workspace tokens', () => {
  it('are made by owners and admins for an agent, the secret in that answer alone, and listed newest first without it', async () => {
    const made: TokenBody[] = [];
    for (const [who, name] of [
      [owner, 'first'],
      [admin, ' second '],
    ] as const) {
      const res = await create(who, { actor_id: agent.id, name });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      const token = res.body as TokenBody;
      expect(token).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        kind: 'workspace',
        workspace_id: ws,
        conversation_id: null,
        actor_id: agent.id,
        name: name.trim(),
        token_prefix: token.token!.slice(0, 12),
        created_by_actor_id: (await myActor(who, ws)).id,
        created_at: expect.any(String),
        last_used_at: null,
        revoked_at: null,
        token: expect.stringMatching(/^wms_wt_[A-Za-z0-9_-]{43}$/),
      });
      made.push(token);
    }
    expect(made[0]!.token).not.toBe(made[1]!.token);
    const list = await listed();
    expect(list.slice(0, 2)).toEqual([
      { ...made[1], token: null },
      { ...made[0], token: null },
    ]);
    expect(JSON.stringify(await tokens(admin).then((r) => r.body))).not.toContain(made[0]!.token!.slice(12));
  });

  it('refuse a member (403) and a non-member (404), and anything but an active agent or a name of 1..80 (400), creating nothing', async () => {
    const before = await listed();
    expectError(await create(member, { actor_id: agent.id, name: 'x' }), 403, 'forbidden');
    expectError(await tokens(member), 403, 'forbidden');
    expectError(await create(stranger, { actor_id: agent.id, name: 'x' }), 404, 'workspace_not_found');
    const ownActor = (await myActor(owner, ws)).id;
    for (const [body, field] of [
      [{ actor_id: ownActor, name: 'a user actor' }, 'body.actor_id'],
      [{ actor_id: '00000000-0000-4000-8000-000000000000', name: 'unknown' }, 'body.actor_id'],
      [{ actor_id: 'not-a-uuid', name: 'malformed' }, 'body.actor_id'],
      [{ actor_id: agent.id, name: '  ' }, 'body.name'],
      [{ actor_id: agent.id, name: 'x'.repeat(81) }, 'body.name'],
      [{ actor_id: agent.id }, 'body.name'],
    ] as const) {
      const res = await create(owner, body);
      expectError(res, 400, 'invalid_input');
      expect(
        (res.body as { error: { details: Array<{ field: string }> } }).error.details.map((d) => d.field),
        JSON.stringify(body),
      ).toContain(field);
    }
    expect(await listed()).toEqual(before);
  });

  it('are revoked by owners and admins, once (again: 204, the first time kept), within their workspace only', async () => {
    const token = (await create(owner, { actor_id: agent.id, name: 'to revoke' })).body as TokenBody;
    const revoke = (who: Account, id = token.id, workspaceId = ws) =>
      inWorkspace(who, workspaceId, 'DELETE', `/workspace/tokens/${id}`);
    expectError(await revoke(member), 403, 'forbidden');
    expect((await listed()).find((t) => t.id === token.id)!.revoked_at).toBeNull();
    // Another workspace's owner does not find it.
    const elsewhere = (await createWorkspace(stranger)).id;
    expectError(await revoke(stranger, token.id, elsewhere), 404, 'not_found');
    expectError(await revoke(owner, '00000000-0000-4000-8000-000000000000'), 404, 'not_found');
    expect((await revoke(admin)).status).toBe(204);
    const revokedAt = (await listed()).find((t) => t.id === token.id)!.revoked_at;
    expect(revokedAt).toEqual(expect.any(String));
    expect((await revoke(owner)).status).toBe(204);
    expect((await listed()).find((t) => t.id === token.id)!.revoked_at).toBe(revokedAt);
  });
});
