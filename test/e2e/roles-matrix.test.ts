import { beforeAll, describe, expect, it } from 'vitest';
import { type Account, signUp } from './support/accounts.ts';
import type { ApiOptions } from './support/http.ts';
import { image, multipart } from './support/images.ts';
import {
  type ActorBody,
  addMember,
  createWorkspace,
  inWorkspace,
  workspaceState,
  type WorkspaceUserBody,
} from './support/workspaces.ts';

type Caller = 'owner' | 'admin' | 'member' | 'non-member' | 'outsider';
const callers: Caller[] = ['owner', 'admin', 'member', 'non-member', 'outsider'];

/** A fresh workspace for each case: owner, admin, member, a second admin and member to act on, and an agent. */
interface Fixture {
  workspaceId: string;
  otherAdmin: WorkspaceUserBody;
  otherMember: WorkspaceUserBody;
  agent: ActorBody;
  /** A token of the agent, when the case made one. */
  token?: string;
}

interface Case {
  route: string;
  /** What the case needs beyond the fixture: a photo for the removal to remove. */
  given?(f: Fixture): Promise<void>;
  request(f: Fixture): { method: string; path: string } & ApiOptions;
  expected: Record<Caller, number>;
}

const both = (owner: number, admin: number, member: number): Record<Caller, number> => ({
  owner,
  admin,
  member,
  'non-member': 404,
  outsider: 404,
});

let png: Buffer;
const accounts = {} as Record<
  'owner' | 'admin' | 'member' | 'nonMember' | 'outsider' | 'otherAdmin' | 'otherMember' | 'newcomer',
  Account
>;

const photo = (by: 'owner' | 'otherMember', path: (f: Fixture) => string) => async (f: Fixture) => {
  const res = await inWorkspace(accounts[by], f.workspaceId, 'PUT', path(f), multipart(png));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
};

const cases: Case[] = [
  {
    route: 'PATCH /workspace',
    request: () => ({ method: 'PATCH', path: '/workspace', body: { name: 'Renamed' } }),
    expected: both(200, 200, 403),
  },
  {
    route: 'DELETE /workspace',
    request: () => ({ method: 'DELETE', path: '/workspace' }),
    expected: both(204, 403, 403),
  },
  {
    route: 'PUT /workspace/owner',
    request: (f) => ({ method: 'PUT', path: '/workspace/owner', body: { workspace_user_id: f.otherMember.id } }),
    expected: both(200, 403, 403),
  },
  {
    route: 'PUT /workspace/avatar',
    request: () => ({ method: 'PUT', path: '/workspace/avatar', ...multipart(png) }),
    expected: both(200, 200, 403),
  },
  {
    route: 'DELETE /workspace/avatar',
    given: photo('owner', () => '/workspace/avatar'),
    request: () => ({ method: 'DELETE', path: '/workspace/avatar' }),
    expected: both(200, 200, 403),
  },
  {
    route: 'POST /workspace/users (member)',
    request: () => ({ method: 'POST', path: '/workspace/users', body: { email: accounts.newcomer.email } }),
    expected: both(201, 201, 403),
  },
  {
    route: 'POST /workspace/users (admin)',
    request: () => ({
      method: 'POST',
      path: '/workspace/users',
      body: { email: accounts.newcomer.email, role: 'admin' },
    }),
    expected: both(201, 403, 403),
  },
  {
    route: 'PATCH /workspace/users/{member}',
    request: (f) => ({ method: 'PATCH', path: `/workspace/users/${f.otherMember.id}`, body: { role: 'admin' } }),
    expected: both(200, 403, 403),
  },
  {
    route: 'PATCH /workspace/users/{admin}',
    request: (f) => ({ method: 'PATCH', path: `/workspace/users/${f.otherAdmin.id}`, body: { role: 'member' } }),
    expected: both(200, 403, 403),
  },
  {
    route: 'DELETE /workspace/users/{member}',
    request: (f) => ({ method: 'DELETE', path: `/workspace/users/${f.otherMember.id}` }),
    expected: both(204, 204, 403),
  },
  {
    route: 'DELETE /workspace/users/{admin}',
    request: (f) => ({ method: 'DELETE', path: `/workspace/users/${f.otherAdmin.id}` }),
    expected: both(204, 403, 403),
  },
  {
    route: 'POST /workspace/actors',
    request: () => ({ method: 'POST', path: '/workspace/actors', body: { display_name: 'Agent' } }),
    expected: both(201, 201, 403),
  },
  {
    route: 'PATCH /workspace/actors/me',
    request: () => ({ method: 'PATCH', path: '/workspace/actors/me', body: { title: 'Me' } }),
    expected: both(200, 200, 200),
  },
  {
    route: 'PATCH /workspace/actors/{agent}',
    request: (f) => ({ method: 'PATCH', path: `/workspace/actors/${f.agent.id}`, body: { title: 'Bot' } }),
    expected: both(200, 200, 403),
  },
  {
    route: 'PATCH /workspace/actors/{other member}',
    request: (f) => ({ method: 'PATCH', path: `/workspace/actors/${f.otherMember.actor_id}`, body: { title: 'Hi' } }),
    expected: both(403, 403, 403),
  },
  {
    route: 'PUT /workspace/actors/{agent}/avatar',
    request: (f) => ({ method: 'PUT', path: `/workspace/actors/${f.agent.id}/avatar`, ...multipart(png) }),
    expected: both(200, 200, 403),
  },
  {
    route: 'DELETE /workspace/actors/{agent}/avatar',
    given: photo('owner', (f) => `/workspace/actors/${f.agent.id}/avatar`),
    request: (f) => ({ method: 'DELETE', path: `/workspace/actors/${f.agent.id}/avatar` }),
    expected: both(200, 200, 403),
  },
  {
    route: 'POST /workspace/actors/{agent}/deactivate',
    request: (f) => ({ method: 'POST', path: `/workspace/actors/${f.agent.id}/deactivate` }),
    expected: both(200, 200, 403),
  },
  {
    route: 'POST /workspace/tokens',
    request: (f) => ({ method: 'POST', path: '/workspace/tokens', body: { actor_id: f.agent.id, name: 'Bot token' } }),
    expected: both(201, 201, 403),
  },
  {
    route: 'DELETE /workspace/tokens/{token}',
    given: async (f) => {
      const res = await inWorkspace(accounts.owner, f.workspaceId, 'POST', '/workspace/tokens', {
        body: { actor_id: f.agent.id, name: 'Bot token' },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      f.token = (res.body as { id: string }).id;
    },
    request: (f) => ({ method: 'DELETE', path: `/workspace/tokens/${f.token}` }),
    expected: both(204, 204, 403),
  },
  {
    route: 'DELETE /workspace/actors/{other member}/avatar',
    given: photo('otherMember', (f) => `/workspace/actors/${f.otherMember.actor_id}/avatar`),
    request: (f) => ({ method: 'DELETE', path: `/workspace/actors/${f.otherMember.actor_id}/avatar` }),
    expected: both(403, 403, 403),
  },
];

async function fixture(): Promise<Fixture> {
  const ws = await createWorkspace(accounts.owner);
  await addMember(accounts.owner, ws.id, accounts.admin, 'admin');
  await addMember(accounts.owner, ws.id, accounts.member, 'member');
  const otherAdmin = await addMember(accounts.owner, ws.id, accounts.otherAdmin, 'admin');
  const otherMember = await addMember(accounts.owner, ws.id, accounts.otherMember, 'member');
  const agent = (
    await inWorkspace(accounts.owner, ws.id, 'POST', '/workspace/actors', { body: { display_name: 'Fixture agent' } })
  ).body as ActorBody;
  return { workspaceId: ws.id, otherAdmin, otherMember, agent };
}

const accountOf = (caller: Caller): Account =>
  ({
    owner: accounts.owner,
    admin: accounts.admin,
    member: accounts.member,
    'non-member': accounts.nonMember,
    outsider: accounts.outsider,
  })[caller];

beforeAll(async () => {
  png = await image('png', 300, 300);
  const names = ['owner', 'admin', 'member', 'nonMember', 'outsider', 'otherAdmin', 'otherMember', 'newcomer'] as const;
  const made = await Promise.all(names.map((n) => signUp(`matrix-${n}`)));
  names.forEach((n, i) => (accounts[n] = made[i]!));
  // The outsider is a member of another workspace, and names this one in its header.
  await createWorkspace(accounts.outsider, 'Elsewhere');
});

describe('role rules: every mutating workspace route × every kind of caller', () => {
  it.each(cases.flatMap((c) => callers.map((caller) => [c.route, caller, c.expected[caller], c] as const)))(
    '%s as %s answers %i, and changes the workspace only when it accepts',
    async (_route, caller, expected, c) => {
      const f = await fixture();
      await c.given?.(f);
      const before = await workspaceState(accounts.owner, f.workspaceId);
      const { method, path, ...options } = c.request(f);
      const res = await inWorkspace(accountOf(caller), f.workspaceId, method, path, options);
      expect(res.status, JSON.stringify(res.body)).toBe(expected);
      if (expected === 403) expect((res.body as { error: { code: string } }).error.code).toBe('forbidden');
      if (expected === 404) expect((res.body as { error: { code: string } }).error.code).toBe('workspace_not_found');
      const after = await workspaceState(accounts.owner, f.workspaceId);
      // An accepted write shows the read-back sees what the route changes; a refused one must leave it as it was.
      if (expected < 400) expect(after, 'an accepted write shows in the read-back').not.toEqual(before);
      else expect(after, 'a refused write must change nothing').toEqual(before);
    },
  );
});
