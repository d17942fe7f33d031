import { randomUUID } from 'node:crypto';
import type { CallContext } from '@wms/kit/context';
import type { Knex } from '@wms/kit/db';
import { notFound } from '@wms/kit/errors';
import { isUuid, uuidv7 } from '@wms/kit/ids';
import { type Channel, validateNewChannel } from './domain/channel.ts';
import type { ChannelStore } from './store/channel.store.ts';
import type { OutboxStore } from './store/outbox.store.ts';

/** The channel as clients see it in events (contract §4: `conversation_id` equals `id`). */
export const channelView = (c: Channel) => ({
  id: c.id,
  workspace_id: c.workspaceId,
  conversation_id: c.id,
  name: c.name,
  topic: c.topic,
  created_by_actor_id: c.createdByActorId,
  created_at: c.createdAt.toISOString(),
  updated_at: c.updatedAt.toISOString(),
});

/** Channels of a workspace: readable and writable by all its accepted members (the gateway checks membership). */
export class ChannelService {
  constructor(
    private readonly d: { db: Knex; channels: ChannelStore; outbox: OutboxStore },
  ) {}

  async createChannel(ctx: CallContext, input: { name: string; topic?: string | undefined }): Promise<Channel> {
    const fields = validateNewChannel(input);
    const workspaceId = this.workspaceOf(ctx);
    return this.d.db.transaction(async (trx) => {
      const channel = await this.d.channels.insert({ id: uuidv7(), workspaceId, ...fields, createdByActorId: ctx.actorId! }, trx);
      await this.d.outbox.append(trx, [
        { workspaceId, channel: `private-workspace-${workspaceId}`, event: 'channel.created', payload: { event_id: randomUUID(), channel: channelView(channel) } },
      ]);
      return channel;
    });
  }

  listChannels(ctx: CallContext): Promise<Channel[]> {
    return this.d.channels.list(this.workspaceOf(ctx));
  }

  async getChannel(ctx: CallContext, id: string): Promise<Channel> {
    const channel = isUuid(id) ? await this.d.channels.find(this.workspaceOf(ctx), id) : undefined;
    if (!channel) throw notFound('No such channel.');
    return channel;
  }

  private workspaceOf(ctx: CallContext): string {
    if (!ctx.workspaceId || !ctx.actorId) throw notFound('The workspace does not exist or you are not a member.', 'workspace_not_found');
    return ctx.workspaceId;
  }
}
