import type { CallContext } from './context.ts';
import { notFound } from './errors.ts';

/**
 * The actor a call acts for: the gateway has checked the session and the accepted membership (a user), or the token
 * (an agent, contract §11: no user).
 */
export interface Caller {
  /** The signed-in user; undefined for an agent. */
  userId: string | undefined;
  workspaceId: string;
  actorId: string;
  /** The agent's token; undefined for a user. */
  tokenId: string | undefined;
}

export function callerOf(ctx: CallContext): Caller {
  if (!ctx.workspaceId || !ctx.actorId || (!ctx.userId && !ctx.tokenId))
    throw notFound('The workspace does not exist or you are not a member.', 'workspace_not_found');
  return { userId: ctx.userId, workspaceId: ctx.workspaceId, actorId: ctx.actorId, tokenId: ctx.tokenId };
}

/** The one "who manages" rule: a workspace's owners and admins manage it; members and agents do not. */
export const isManager = (role: string | undefined): boolean => role === 'owner' || role === 'admin';
