import type { CallContext } from './context.ts';
import { notFound } from './errors.ts';

/** The member a call acts for: the gateway has checked the session and the accepted membership. */
export interface Caller {
  userId: string;
  workspaceId: string;
  actorId: string;
}

export function callerOf(ctx: CallContext): Caller {
  if (!ctx.userId || !ctx.workspaceId || !ctx.actorId) throw notFound('The workspace does not exist or you are not a member.', 'workspace_not_found');
  return { userId: ctx.userId, workspaceId: ctx.workspaceId, actorId: ctx.actorId };
}
