import type { ServiceHandlers } from '@wms/kit/grpc-server';
import type { Download } from '@wms/protos/gen/wms/common/v1/Download';
import type { Actor as ActorMessage } from '@wms/protos/gen/wms/workspace/v1/Actor';
import type { Token as TokenMessage } from '@wms/protos/gen/wms/workspace/v1/Token';
import type { Workspace as WorkspaceMessage } from '@wms/protos/gen/wms/workspace/v1/Workspace';
import type { WorkspaceUser as WorkspaceUserMessage } from '@wms/protos/gen/wms/workspace/v1/WorkspaceUser';
import type { Actor, AvatarDownload, MemberWithUser, Token, Workspace } from './domain/model.ts';
import type { CreatedToken } from './token.service.ts';
import type { WorkspaceServices } from './wiring.ts';

const iso = (d: Date | null) => (d ? d.toISOString() : undefined);

const toWorkspace = (w: Workspace): WorkspaceMessage => ({
  id: w.id,
  name: w.name,
  slug: w.slug,
  avatar_id: w.avatarId ?? undefined,
  created_at: w.createdAt.toISOString(),
  updated_at: w.updatedAt.toISOString(),
});

const toMember = (m: MemberWithUser): WorkspaceUserMessage => ({
  id: m.id,
  workspace_id: m.workspaceId,
  user_id: m.userId,
  actor_id: m.actorId,
  role: m.role,
  accepted_at: iso(m.acceptedAt),
  created_at: m.createdAt.toISOString(),
  updated_at: m.updatedAt.toISOString(),
  user: m.user,
});

const toActor = (a: Actor): ActorMessage => ({
  id: a.id,
  workspace_id: a.workspaceId,
  kind: a.kind,
  user_id: a.userId ?? undefined,
  display_name: a.displayName,
  title: a.title ?? undefined,
  avatar_id: a.avatarId ?? undefined,
  managed_by_admins: a.managedByAdmins,
  deactivated_at: iso(a.deactivatedAt),
  created_at: a.createdAt.toISOString(),
  updated_at: a.updatedAt.toISOString(),
});

const toDownload = (d: AvatarDownload): Download => ({
  url: d.url,
  expires_at: d.expiresAt.toISOString(),
  name: d.name,
  content_type: d.contentType,
  size_bytes: d.sizeBytes,
});

/** A token as listed (no secret), or as created (with it). */
const toToken = (t: Token | CreatedToken): TokenMessage => ({
  id: t.id,
  kind: t.kind,
  workspace_id: t.workspaceId,
  conversation_id: t.conversationId ?? undefined,
  actor_id: t.actorId,
  name: t.name,
  token_prefix: t.tokenPrefix,
  created_by_actor_id: t.createdByActorId,
  created_at: t.createdAt.toISOString(),
  last_used_at: iso(t.lastUsedAt),
  revoked_at: iso(t.revokedAt),
  token: 'secret' in t ? t.secret : undefined,
});

export function workspaceHandlers({
  workspaces,
  members,
  actors,
  avatars,
  tokens,
}: WorkspaceServices): ServiceHandlers<'workspace'> {
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
