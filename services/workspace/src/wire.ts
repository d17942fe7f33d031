import type { Download__Output } from '@wms/protos/gen/wms/common/v1/Download';
import type { Actor__Output } from '@wms/protos/gen/wms/workspace/v1/Actor';
import type { Invitation__Output } from '@wms/protos/gen/wms/workspace/v1/Invitation';
import type { ReceivedInvitation__Output } from '@wms/protos/gen/wms/workspace/v1/ReceivedInvitation';
import type { Token__Output } from '@wms/protos/gen/wms/workspace/v1/Token';
import type { Workspace__Output } from '@wms/protos/gen/wms/workspace/v1/Workspace';
import type { WorkspaceUser__Output } from '@wms/protos/gen/wms/workspace/v1/WorkspaceUser';
import type {
  Actor,
  AvatarDownload,
  CreatedToken,
  Invitation,
  MemberWithUser,
  ReceivedInvitation,
  Token,
  Workspace,
} from './domain/model.ts';

// The domain as its proto messages, for the gRPC answers (rpc.ts) and for the events (event-payloads.ts), which make
// their resources' JSON from the same messages with @wms/protos/public, as the gateway does from the answers. Each is
// typed as the message a client decodes (every field present), so that both see the same object.

const iso = (d: Date | null) => (d ? d.toISOString() : undefined);

export const toWorkspace = (w: Workspace): Workspace__Output => ({
  id: w.id,
  name: w.name,
  slug: w.slug,
  avatar_id: w.avatarId ?? undefined,
  created_at: w.createdAt.toISOString(),
  updated_at: w.updatedAt.toISOString(),
});

export const toMember = (m: MemberWithUser): WorkspaceUser__Output => ({
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

export const toActor = (a: Actor): Actor__Output => ({
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

export const toDownload = (d: AvatarDownload): Download__Output => ({
  url: d.url,
  expires_at: d.expiresAt.toISOString(),
  name: d.name,
  content_type: d.contentType,
  size_bytes: d.sizeBytes,
});

/** A token as listed (no secret), or as created (with it). */
export const toToken = (t: Token | CreatedToken): Token__Output => ({
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

export const toInvitation = (i: Invitation): Invitation__Output => ({
  id: i.id,
  workspace_id: i.workspaceId,
  email: i.email,
  role: i.role,
  status: i.status,
  invited_by_actor_id: i.invitedByActorId,
  workspace_user_id: i.workspaceUserId ?? undefined,
  expires_at: i.expiresAt.toISOString(),
  created_at: i.createdAt.toISOString(),
  updated_at: i.updatedAt.toISOString(),
});

export const toReceivedInvitation = (r: ReceivedInvitation): ReceivedInvitation__Output => ({
  invitation: toInvitation(r.invitation),
  workspace: {
    id: r.workspace.id,
    name: r.workspace.name,
    slug: r.workspace.slug,
    avatar_id: r.workspace.avatarId ?? undefined,
  },
  invited_by: { display_name: r.invitedBy.displayName, avatar_id: r.invitedBy.avatarId ?? undefined },
});
