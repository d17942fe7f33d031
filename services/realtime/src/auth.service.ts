import { callerOf } from '@wms/kit/caller';
import type { CallContext } from '@wms/kit/context';
import { ensure, forbidden } from '@wms/kit/errors';
import { isSocketId, parseChannel } from './domain/channels.ts';
import type { ClientConfig } from './domain/provider.ts';
import type { PresenceStore } from './store/presence.store.ts';

/** A presence member as the other members see it (contract §7's channel_data). */
export interface Member {
  userId: string;
  userInfo: { display_name: string; avatar_id: string | null };
}

/** Signs for the provider exactly as its client library checks. */
export interface ChannelSigner {
  authorizeChannel(socketId: string, channel: string, member?: Member): { auth: string; channelData: string | null };
  authenticateUser(socketId: string, user: { id: string }): { auth: string; userData: string };
}

export interface Conversations {
  /** Whether the conversation exists in the workspace and the caller sees it. */
  inWorkspace(ctx: CallContext, workspaceId: string, conversationId: string): Promise<boolean>;
}

export interface ActorProfiles {
  profile(ctx: CallContext, actorId: string): Promise<{ displayName: string; avatarId: string | null } | undefined>;
}

export class AuthService {
  constructor(
    private readonly d: {
      clientConfig: ClientConfig;
      signer: ChannelSigner;
      conversations: Conversations;
      actors: ActorProfiles;
      presence: Pick<PresenceStore, 'recordActor'>;
    },
  ) {}

  config(): ClientConfig {
    return this.d.clientConfig;
  }

  /**
   * Signs a subscription to one of the caller's channels: its workspace's two, a conversation of its workspace, its
   * own actor channel; anything else is forbidden.
   */
  async authorizeChannel(
    ctx: CallContext,
    socketId: string,
    channelName: string,
  ): Promise<{ auth: string; channelData: string | null }> {
    const me = callerOf(ctx);
    ensure(
      ['body.socket_id', isSocketId(socketId), 'must be a socket id like 1234.5678'],
      ['body.channel_name', channelName.length >= 1 && channelName.length <= 200, 'must be 1 to 200 characters'],
    );
    const channel = parseChannel(channelName);
    const refused = () => forbidden('You cannot subscribe to this channel.');
    if (!channel) throw refused();
    let member: Member | undefined;
    switch (channel.kind) {
      case 'workspace':
        if (channel.workspaceId !== me.workspaceId) throw refused();
        break;
      case 'presence': {
        if (channel.workspaceId !== me.workspaceId) throw refused();
        const profile = await this.d.actors.profile(ctx, me.actorId);
        if (!profile) throw refused();
        member = { userId: me.actorId, userInfo: { display_name: profile.displayName, avatar_id: profile.avatarId } };
        break;
      }
      case 'actor':
        if (channel.actorId !== me.actorId) throw refused();
        break;
      case 'conversation':
        if (!(await this.d.conversations.inWorkspace(ctx, me.workspaceId, channel.conversationId))) throw refused();
        break;
    }
    // Occupancy of the actor's channel maps to this workspace from now on (webhooks name only the channel).
    await this.d.presence.recordActor(me.actorId, me.workspaceId);
    return this.d.signer.authorizeChannel(socketId, channelName, member);
  }

  /** Signs the caller's user sign-in: the provider's user is the caller's actor. */
  async authenticateUser(ctx: CallContext, socketId: string): Promise<{ auth: string; userData: string }> {
    const me = callerOf(ctx);
    ensure(['body.socket_id', isSocketId(socketId), 'must be a socket id like 1234.5678']);
    await this.d.presence.recordActor(me.actorId, me.workspaceId);
    return this.d.signer.authenticateUser(socketId, { id: me.actorId });
  }
}
