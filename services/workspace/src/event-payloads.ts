import { randomUUID } from 'node:crypto';
import { workspaceChannel } from '@wms/kit/channels';
import type { OutboxEntry } from '@wms/kit/outbox';
import type { Actor, MemberWithUser, Workspace } from './domain/model.ts';

/** A change realtime clients must see (contract §7), as services record it in the change's own transaction. */
export type WorkspaceEvent =
  | { type: 'workspace.updated'; workspace: Workspace }
  | { type: 'actor.updated'; actor: Actor }
  | { type: 'workspace_user.added' | 'workspace_user.updated' | 'workspace_user.removed'; member: MemberWithUser };

const iso = (d: Date | null) => (d === null ? null : d.toISOString());

// The resources as the HTTP API shows them (contract §3; the gateway's mappers), so an event carries what a client
// would have read.

const workspacePayload = (w: Workspace) => ({
  id: w.id,
  name: w.name,
  slug: w.slug,
  avatar_id: w.avatarId,
  created_at: w.createdAt.toISOString(),
  updated_at: w.updatedAt.toISOString(),
});

const workspaceUserPayload = (m: MemberWithUser) => ({
  id: m.id,
  workspace_id: m.workspaceId,
  user_id: m.userId,
  actor_id: m.actorId,
  role: m.role,
  accepted_at: iso(m.acceptedAt),
  created_at: m.createdAt.toISOString(),
  updated_at: m.updatedAt.toISOString(),
  user: { id: m.user.id, email: m.user.email, name: m.user.name },
});

const actorPayload = (a: Actor) => ({
  id: a.id,
  workspace_id: a.workspaceId,
  kind: a.kind,
  user_id: a.userId,
  display_name: a.displayName,
  title: a.title,
  avatar_id: a.avatarId,
  managed_by_admins: a.managedByAdmins,
  deactivated_at: iso(a.deactivatedAt),
  created_at: a.createdAt.toISOString(),
  updated_at: a.updatedAt.toISOString(),
});

/** The event as clients receive it on its workspace's channel: `{event_id, <resource>}`, each with a fresh `event_id`. */
export function outboxEntryOf(e: WorkspaceEvent): OutboxEntry {
  const event_id = randomUUID();
  switch (e.type) {
    case 'workspace.updated':
      return {
        workspaceId: e.workspace.id,
        channel: workspaceChannel(e.workspace.id),
        event: e.type,
        payload: { event_id, workspace: workspacePayload(e.workspace) },
      };
    case 'actor.updated':
      return {
        workspaceId: e.actor.workspaceId,
        channel: workspaceChannel(e.actor.workspaceId),
        event: e.type,
        payload: { event_id, actor: actorPayload(e.actor) },
      };
    case 'workspace_user.added':
    case 'workspace_user.updated':
    case 'workspace_user.removed':
      return {
        workspaceId: e.member.workspaceId,
        channel: workspaceChannel(e.member.workspaceId),
        event: e.type,
        payload: { event_id, workspace_user: workspaceUserPayload(e.member) },
      };
  }
}
