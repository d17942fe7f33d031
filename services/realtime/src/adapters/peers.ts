import type { CallContext } from '@wms/kit/context';
import { DomainError } from '@wms/kit/errors';
import type { PeerClient } from '@wms/kit/grpc-client';
import type { ActorProfiles, Conversations } from '../auth.service.ts';
import type { ConversationAccess } from '../events.service.ts';

export type MessagingClient = Pick<PeerClient<'messaging'>, 'GetChannel' | 'ReadableConversations'>;
export type WorkspaceClient = Pick<PeerClient<'workspace'>, 'GetActorsByIds'>;

/**
 * The messaging service, which owns conversations: whether one is in the caller's workspace and the caller sees it
 * (messaging answers not_found for a private or direct conversation it is not a member of), and which of several
 * the caller may read.
 */
export const conversationsOf = (messaging: MessagingClient): Conversations & ConversationAccess => ({
  async inWorkspace(ctx: CallContext, workspaceId: string, conversationId: string) {
    try {
      const channel = await messaging.GetChannel({ channel_id: conversationId }, ctx);
      return channel.workspace_id === workspaceId;
    } catch (err) {
      if (err instanceof DomainError && err.kind === 'not_found') return false;
      throw err;
    }
  },
  async readable(ctx: CallContext, conversationIds: string[]) {
    const { ids } = await messaging.ReadableConversations({ ids: conversationIds }, ctx);
    return new Set(ids);
  },
});

/** The workspace service, which owns actors: the name and avatar other members see. */
export const actorProfilesOf = (workspace: WorkspaceClient): ActorProfiles => ({
  async profile(ctx: CallContext, actorId: string) {
    const { actors } = await workspace.GetActorsByIds({ ids: [actorId] }, ctx);
    const actor = actors.find((a) => a.id === actorId);
    return actor ? { displayName: actor.display_name, avatarId: actor.avatar_id ?? null } : undefined;
  },
});
