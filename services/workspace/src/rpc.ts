import type { ServiceHandlers } from '@wms/kit/grpc-server';
import type { ActorService } from './actor.service.ts';
import type { AvatarService } from './avatar.service.ts';
import type { InvitationService } from './invitation.service.ts';
import type { MemberService } from './member.service.ts';
import type { TokenService } from './token.service.ts';
import type { WorkspaceService } from './workspace.service.ts';
import { toActor, toDownload, toInvitation, toMember, toReceivedInvitation, toToken, toWorkspace } from './wire.ts';

export interface WorkspaceServices {
  workspaces: WorkspaceService;
  members: MemberService;
  actors: ActorService;
  avatars: AvatarService;
  tokens: TokenService;
  invitations: InvitationService;
}

export function workspaceHandlers(services: WorkspaceServices): ServiceHandlers<'workspace'> {
  return { ...workspaceAndMemberHandlers(services), ...invitationHandlers(services.invitations) };
}

function workspaceAndMemberHandlers({
  workspaces,
  members,
  actors,
  avatars,
  tokens,
}: WorkspaceServices): Omit<ServiceHandlers<'workspace'>, keyof ReturnType<typeof invitationHandlers>> {
  return {
    CreateWorkspace: async (req, ctx) => toWorkspace(await workspaces.createWorkspace(ctx, req)),
    ListWorkspaces: async (_req, ctx) => ({ workspaces: (await workspaces.listWorkspaces(ctx)).map(toWorkspace) }),
    GetWorkspace: async (_req, ctx) => toWorkspace(await workspaces.getWorkspace(ctx)),
    UpdateWorkspace: async (req, ctx) =>
      toWorkspace(await workspaces.updateWorkspace(ctx, { name: req.name, slug: req.slug })),
    DeleteWorkspace: async (_req, ctx) => {
      await workspaces.deleteWorkspace(ctx);
      return {};
    },
    TransferOwnership: async (req, ctx) =>
      toMember(await members.transferOwnership(ctx, { workspaceUserId: req.workspace_user_id })),
    ResolveMembership: async (req) => {
      const m = await members.resolveMembership({ workspaceId: req.workspace_id, userId: req.user_id });
      return { workspace_id: m.workspaceId, workspace_user_id: m.id, actor_id: m.actorId, role: m.role };
    },
    AddWorkspaceUser: async (req, ctx) =>
      toMember(await members.addWorkspaceUser(ctx, { email: req.email, role: req.role })),
    ListWorkspaceUsers: async (_req, ctx) => ({
      workspace_users: (await members.listWorkspaceUsers(ctx)).map(toMember),
    }),
    UpdateWorkspaceUserRole: async (req, ctx) =>
      toMember(await members.updateWorkspaceUserRole(ctx, { workspaceUserId: req.workspace_user_id, role: req.role })),
    RemoveWorkspaceUser: async (req, ctx) => {
      await members.removeWorkspaceUser(ctx, { workspaceUserId: req.workspace_user_id });
      return {};
    },
    ListActors: async (req, ctx) => ({ actors: (await actors.listActors(ctx, req.q)).map(toActor) }),
    GetActor: async (req, ctx) => toActor(await actors.getActor(ctx, req.actor_id)),
    UpdateActor: async (req, ctx) =>
      toActor(
        await actors.updateActor(ctx, req.actor_id, {
          displayName: req.display_name,
          title: req.title ? (req.title.value ?? null) : undefined,
        }),
      ),
    CreateAgentActor: async (req, ctx) =>
      toActor(await actors.createAgentActor(ctx, { displayName: req.display_name, title: req.title })),
    DeactivateAgent: async (req, ctx) => toActor(await actors.deactivateAgent(ctx, req.actor_id)),
    GetActorsByIds: async (req, ctx) => ({ actors: (await actors.getActorsByIds(ctx, req.ids)).map(toActor) }),
    SetWorkspaceAvatar: async (req, ctx) => toWorkspace(await avatars.setWorkspaceAvatar(ctx, req.content)),
    DeleteWorkspaceAvatar: async (_req, ctx) => toWorkspace(await avatars.deleteWorkspaceAvatar(ctx)),
    GetWorkspaceAvatar: async (req, ctx) => toDownload(await avatars.workspaceAvatarDownload(ctx, req.avatar_id)),
    SetActorAvatar: async (req, ctx) => toActor(await avatars.setActorAvatar(ctx, req.actor_id, req.content)),
    DeleteActorAvatar: async (req, ctx) => toActor(await avatars.deleteActorAvatar(ctx, req.actor_id)),
    GetActorAvatar: async (req, ctx) => toDownload(await avatars.actorAvatarDownload(ctx, req.actor_id, req.avatar_id)),
    CreateWorkspaceToken: async (req, ctx) =>
      toToken(await tokens.createWorkspaceToken(ctx, { actorId: req.actor_id, name: req.name })),
    ListWorkspaceTokens: async (_req, ctx) => ({ tokens: (await tokens.listWorkspaceTokens(ctx)).map(toToken) }),
    CreateConversationToken: async (req, ctx) =>
      toToken(
        await tokens.createConversationToken(ctx, req.conversation_id, { actorId: req.actor_id, name: req.name }),
      ),
    ListConversationTokens: async (req, ctx) => ({
      tokens: (await tokens.listConversationTokens(ctx, req.conversation_id)).map(toToken),
    }),
    ResolveToken: async (req) => {
      const token = await tokens.resolve(req.secret_sha256);
      return { token: token && toToken(token) };
    },
    RecordTokenUse: async (req) => {
      await tokens.recordUse(req.token_id);
      return {};
    },
    RevokeToken: async (req, ctx) => {
      await tokens.revokeToken(ctx, req.token_id);
      return {};
    },
  };
}

/** Contract §12. */
function invitationHandlers(invitations: InvitationService) {
  return {
    CreateInvitation: async (req, ctx) => {
      const sent = await invitations.invite(ctx, { email: req.email, role: req.role });
      return { invitation: toInvitation(sent.invitation), created: sent.created };
    },
    ListInvitations: async (req, ctx) => {
      const page = await invitations.list(ctx, {
        status: req.status || undefined,
        cursor: req.cursor,
        limit: req.limit,
      });
      return { items: page.items.map(toInvitation), next_cursor: page.nextCursor ?? undefined };
    },
    RevokeInvitation: async (req, ctx) => {
      await invitations.revoke(ctx, req.invitation_id);
      return {};
    },
    ListReceivedInvitations: async (_req, ctx) => ({
      invitations: (await invitations.received(ctx)).map(toReceivedInvitation),
    }),
    AcceptInvitation: async (req, ctx) => toMember(await invitations.accept(ctx, req.invitation_id)),
    DeclineInvitation: async (req, ctx) => {
      await invitations.decline(ctx, req.invitation_id);
      return {};
    },
    RegisterFromInvitation: async (req, ctx) =>
      invitations.register(ctx, { token: req.token, name: req.name, password: req.password }),
    GetInvitationByToken: async (req) => toReceivedInvitation(await invitations.byToken(req.token)),
  } satisfies Partial<ServiceHandlers<'workspace'>>;
}
