import { randomUUID } from 'node:crypto';
import { workspaceChannel } from '@wms/kit/channels';
import type { OutboxEntry } from '@wms/kit/outbox';
import { publicActor, publicWorkspace, publicWorkspaceUser } from '@wms/protos/public';
import type { Actor, MemberWithUser, Workspace } from './domain/model.ts';
import { toActor, toMember, toWorkspace } from './wire.ts';

/** A change realtime clients must see (contract §7), as services record it in the change's own transaction. */
export type WorkspaceEvent =
  | { type: 'workspace.updated'; workspace: Workspace }
  | { type: 'workspace.deleted'; workspaceId: string }
  | { type: 'actor.updated'; actor: Actor }
  | { type: 'workspace_user.added' | 'workspace_user.updated' | 'workspace_user.removed'; member: MemberWithUser };

/**
 * The event as clients receive it on its workspace's channel: `{event_id, <resource>}`, each with a fresh `event_id`,
 * the resource as the HTTP API shows it (the same proto message and public mapping as the gateway's answer).
 */
export function outboxEntryOf(e: WorkspaceEvent): OutboxEntry {
  const event_id = randomUUID();
  switch (e.type) {
    case 'workspace.updated':
      return {
        workspaceId: e.workspace.id,
        channel: workspaceChannel(e.workspace.id),
        event: e.type,
        payload: { event_id, workspace: publicWorkspace(toWorkspace(e.workspace)) },
      };
    case 'workspace.deleted':
      return {
        workspaceId: e.workspaceId,
        channel: workspaceChannel(e.workspaceId),
        event: e.type,
        payload: { event_id, workspace_id: e.workspaceId },
      };
    case 'actor.updated':
      return {
        workspaceId: e.actor.workspaceId,
        channel: workspaceChannel(e.actor.workspaceId),
        event: e.type,
        payload: { event_id, actor: publicActor(toActor(e.actor)) },
      };
    case 'workspace_user.added':
    case 'workspace_user.updated':
    case 'workspace_user.removed':
      return {
        workspaceId: e.member.workspaceId,
        channel: workspaceChannel(e.member.workspaceId),
        event: e.type,
        payload: { event_id, workspace_user: publicWorkspaceUser(toMember(e.member)) },
      };
  }
}
