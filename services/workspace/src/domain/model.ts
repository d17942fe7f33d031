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
