import type { CallContext } from '@wms/kit/context';
import { isUuid } from '@wms/kit/ids';
import type { Actor, Workspace, WorkspaceUser } from './domain/model.ts';
import { actorNotFound, requireCanEditActor, workspaceNotFound } from './domain/rules.ts';
import type { ActorStore } from './store/actor.store.ts';
import type { MemberStore } from './store/member.store.ts';
import type { WorkspaceStore } from './store/workspace.store.ts';

// The lookups every workspace service starts from: what the caller may not see is simply not found.

/** The caller's accepted membership, for what only a user does (members, roles, ownership): an agent is refused. */
export async function requireMember(members: MemberStore, ctx: CallContext): Promise<WorkspaceUser> {
  if (!ctx.workspaceId || !ctx.userId) throw workspaceNotFound();
  const member = await members.findAccepted(ctx.workspaceId, ctx.userId);
  if (!member) throw workspaceNotFound();
  return member;
}

/** Who calls, as the rules need it: a member's role, or `agent` for an agent acting with a token (no role of its own). */
export interface CallerRole {
  role: WorkspaceUser['role'] | 'agent';
  actorId: string;
}

/**
 * The caller as the database has it now (the gateway's cached view is not trusted for rules): a user's accepted
 * membership, or an agent's actor while it is active (contract §11).
 */
export async function requireCaller(
  stores: { members: MemberStore; actors: ActorStore },
  ctx: CallContext,
): Promise<CallerRole> {
  if (!ctx.workspaceId) throw workspaceNotFound();
  if (ctx.userId) return requireMember(stores.members, ctx);
  const agent = ctx.tokenId && ctx.actorId ? await stores.actors.find(ctx.workspaceId, ctx.actorId) : undefined;
  if (agent?.kind !== 'agent' || agent.deactivatedAt !== null) throw workspaceNotFound();
  return { role: 'agent', actorId: agent.id };
}

/** The caller's workspace, unless it was deleted. */
export async function requireLiveWorkspace(workspaces: WorkspaceStore, ctx: CallContext): Promise<Workspace> {
  const workspace = await workspaces.findLive(ctx.workspaceId!);
  if (!workspace) throw workspaceNotFound();
  return workspace;
}

/** An actor of the caller's workspace; a malformed or another workspace's id is not found. */
export async function requireActor(actors: ActorStore, ctx: CallContext, actorId: string): Promise<Actor> {
  const actor = isUuid(actorId) ? await actors.find(ctx.workspaceId!, actorId) : undefined;
  if (!actor) throw actorNotFound();
  return actor;
}

/** The actor an edit (profile or avatar) may change, after the permission check of contract §3. */
export async function requireEditableActor(
  stores: { members: MemberStore; actors: ActorStore },
  ctx: CallContext,
  actorId: string,
): Promise<Actor> {
  const caller = await requireCaller(stores, ctx);
  const actor = await requireActor(stores.actors, ctx, actorId);
  requireCanEditActor({ role: caller.role, actorId: caller.actorId }, actor);
  return actor;
}
