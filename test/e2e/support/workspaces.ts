import { expect } from 'vitest';
import type { Account } from './accounts.ts';
import { api, type ApiOptions, type ApiResponse } from './http.ts';

export interface WorkspaceBody {
  id: string;
  name: string;
  slug: string;
  avatar_id: string | null;
  created_at: string;
  updated_at: string;
}

export interface WorkspaceUserBody {
  id: string;
  workspace_id: string;
  user_id: string;
  actor_id: string;
  role: string;
  accepted_at: string | null;
  user: { id: string; email: string; name: string };
}

export interface ActorBody {
  id: string;
  workspace_id: string;
  kind: string;
  user_id: string | null;
  display_name: string;
  title: string | null;
  avatar_id: string | null;
  managed_by_admins: boolean;
  deactivated_at: string | null;
}

export const uniqueSlug = (tag = 'ws') => `${tag}-${Math.random().toString(36).slice(2, 10)}`;

/** A request inside a workspace, as the account. */
export const inWorkspace = (
  account: Pick<Account, 'token'>,
  workspaceId: string,
  method: string,
  path: string,
  options: ApiOptions = {},
): Promise<ApiResponse> =>
  api(method, path, {
    ...options,
    token: account.token,
    headers: { 'X-Workspace-Id': workspaceId, ...options.headers },
  });

export async function createWorkspace(owner: Account, name = 'Test workspace'): Promise<WorkspaceBody> {
  const res = await api('POST', '/workspaces', { token: owner.token, body: { name, slug: uniqueSlug() } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as WorkspaceBody;
}

export async function addMember(
  by: Account,
  workspaceId: string,
  who: Account,
  role: 'admin' | 'member' = 'member',
): Promise<WorkspaceUserBody> {
  const res = await inWorkspace(by, workspaceId, 'POST', '/workspace/users', { body: { email: who.email, role } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as WorkspaceUserBody;
}

export async function myActor(account: Account, workspaceId: string): Promise<ActorBody> {
  const res = await inWorkspace(account, workspaceId, 'GET', '/workspace/actors/me');
  expect(res.status).toBe(200);
  return res.body as ActorBody;
}

/**
 * What the workspace routes can change, as the account reads it back: the workspace, its members, its actors, its
 * tokens and its pending invitations (each the body, or the status when not 200).
 */
export async function workspaceState(
  account: Account,
  workspaceId: string,
): Promise<Record<'workspace' | 'users' | 'actors' | 'tokens' | 'invitations', unknown>> {
  const read = async (path: string) => {
    const res = await inWorkspace(account, workspaceId, 'GET', path);
    return res.status === 200 ? res.body : res.status;
  };
  const [workspace, users, actors, tokens, invitations] = await Promise.all(
    [
      '/workspace',
      '/workspace/users',
      '/workspace/actors',
      '/workspace/tokens',
      '/workspace/invitations?limit=100',
    ].map(read),
  );
  return { workspace, users, actors, tokens, invitations };
}

/** Runs refused writes and expects the workspace, its members, its actors and its tokens to read back as before. */
export async function expectUnchanged(
  account: Account,
  workspaceId: string,
  refused: () => Promise<unknown>,
): Promise<void> {
  const before = await workspaceState(account, workspaceId);
  await refused();
  expect(await workspaceState(account, workspaceId), 'a refused write must change nothing').toEqual(before);
}
