import type { Caller } from '@wms/kit/caller';
import type { CallContext } from '@wms/kit/context';
import type { PeerClient } from '@wms/kit/grpc-client';

export type WorkspaceClient = Pick<PeerClient<'workspace'>, 'GetActorsByIds' | 'ResolveMembership'>;

/** What messaging asks of the workspace service, which owns actors and memberships: one call per question. */
export class WorkspaceMembers {
  constructor(private readonly workspace: WorkspaceClient) {}

  /** The display name of each of `actorIds` that is an active actor of the caller's workspace; the others are absent. */
  async activeNames(ctx: CallContext, actorIds: string[]): Promise<Map<string, string>> {
    if (actorIds.length === 0) return new Map();
    const { actors } = await this.workspace.GetActorsByIds({ ids: actorIds }, ctx);
    return new Map(actors.filter((a) => !a.deactivated_at).map((a) => [a.id, a.display_name]));
  }

  /** Each of `actorIds` that is an actor of the caller's workspace, active or deactivated (removed from it); the others are absent. */
  async actorStates(ctx: CallContext, actorIds: string[]): Promise<Map<string, 'active' | 'deactivated'>> {
    if (actorIds.length === 0) return new Map();
    const { actors } = await this.workspace.GetActorsByIds({ ids: actorIds }, ctx);
    return new Map(actors.map((a) => [a.id, a.deactivated_at ? 'deactivated' : 'active']));
  }

  /** The caller's role as the workspace service has it now; an agent (contract §11) has none of a member's. */
  async roleOf(ctx: CallContext, me: Caller): Promise<string> {
    if (!me.userId) return 'agent';
    return (await this.workspace.ResolveMembership({ workspace_id: me.workspaceId, user_id: me.userId }, ctx)).role;
  }
}
