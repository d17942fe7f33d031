import type { CallContext } from '@wms/kit/context';
import type { PeerClient } from '@wms/kit/grpc-client';

export type MessagingClient = Pick<PeerClient<'messaging'>, 'AdmitAgent' | 'ReadableConversations'>;

/** What the workspace service asks of messaging, which owns conversations, about a conversation token's conversation. */
export class Conversations {
  constructor(private readonly messaging: MessagingClient) {}

  /** Whether the caller may read the conversation (contract §9). */
  async readable(ctx: CallContext, conversationId: string): Promise<boolean> {
    return (await this.messaging.ReadableConversations({ ids: [conversationId] }, ctx)).ids.length === 1;
  }

  /** Makes the agent able to post in a conversation the caller reads (404 when it may not read it; 400 for a direct conversation without the agent). */
  async admitAgent(ctx: CallContext, conversationId: string, actorId: string): Promise<void> {
    await this.messaging.AdmitAgent({ conversation_id: conversationId, actor_id: actorId }, ctx);
  }
}
