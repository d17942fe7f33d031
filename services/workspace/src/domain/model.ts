import type { TokenKind } from '@wms/kit/tokens';
import type { InvitationStatus } from './invitation.ts';

export type Role = 'owner' | 'admin' | 'member';

export interface Workspace {
  id: string;
  name: string;
  slug: string;
  avatarId: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface WorkspaceUser {
  id: string;
  workspaceId: string;
  userId: string;
  actorId: string;
  role: Role;
  acceptedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface Actor {
  id: string;
  workspaceId: string;
  kind: 'user' | 'agent';
  userId: string | null;
  displayName: string;
  title: string | null;
  avatarId: string | null;
  managedByAdmins: boolean;
  deactivatedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** An account as member lists show it (from the identity service). */
export interface UserSummary {
  id: string;
  email: string;
  name: string;
}

export type MemberWithUser = WorkspaceUser & { user: UserSummary };

/** A new actor's fields; the database sets the rest. */
export type NewActor = Pick<
  Actor,
  'id' | 'workspaceId' | 'kind' | 'userId' | 'displayName' | 'title' | 'managedByAdmins'
>;

/** A short-lived link to a stored avatar image. */
export interface AvatarDownload {
  url: string;
  expiresAt: Date;
  name: string;
  contentType: string;
  sizeBytes: number;
}

/** An integration credential (contract §11), without its secret, which is shown once and never stored. */
export interface Token {
  id: string;
  kind: TokenKind;
  workspaceId: string;
  /** Null for a workspace token. */
  conversationId: string | null;
  /** The agent the token acts as. */
  actorId: string;
  name: string;
  tokenPrefix: string;
  createdByActorId: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

/** A new token's fields and the SHA-256 of its secret; the database sets the rest. */
/** A token as created: with its secret, shown this once. */
export type CreatedToken = Token & { secret: string };

export type NewToken = Pick<
  Token,
  'id' | 'kind' | 'workspaceId' | 'conversationId' | 'actorId' | 'name' | 'tokenPrefix' | 'createdByActorId'
> & { secretSha256: Buffer };

/** An invitation of an address to a workspace (contract §12), with its status as read now. */
export interface Invitation {
  id: string;
  workspaceId: string;
  email: string;
  role: 'admin' | 'member';
  status: InvitationStatus;
  invitedByActorId: string;
  workspaceUserId: string | null;
  expiresAt: Date;
  createdAt: Date;
  updatedAt: Date;
}

/** A pending invitation as its invitee sees it: with the workspace and who invited. */
export interface ReceivedInvitation {
  invitation: Invitation;
  workspace: Pick<Workspace, 'id' | 'name' | 'slug' | 'avatarId'>;
  invitedBy: Pick<Actor, 'displayName' | 'avatarId'>;
}
