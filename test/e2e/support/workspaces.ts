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
export const inWorkspace = (account: Pick<Account, 'token'>, workspaceId: string, method: string, path: string, options: ApiOptions = {}): Promise<ApiResponse> =>
  api(method, path, { ...options, token: account.token, headers: { 'X-Workspace-Id': workspaceId, ...options.headers } });

export async function createWorkspace(owner: Account, name = 'Test workspace'): Promise<WorkspaceBody> {
  const res = await api('POST', '/workspaces', { token: owner.token, body: { name, slug: uniqueSlug() } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as WorkspaceBody;
}

export async function addMember(by: Account, workspaceId: string, who: Account, role: 'admin' | 'member' = 'member'): Promise<WorkspaceUserBody> {
  const res = await inWorkspace(by, workspaceId, 'POST', '/workspace/users', { body: { email: who.email, role } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as WorkspaceUserBody;
}

export async function myActor(account: Account, workspaceId: string): Promise<ActorBody> {
  const res = await inWorkspace(account, workspaceId, 'GET', '/workspace/actors/me');
  expect(res.status).toBe(200);
  return res.body as ActorBody;
}
