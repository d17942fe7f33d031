import { randomUUID } from 'node:crypto';
import type { CallContext } from '@wms/kit/context';
import type { Knex } from '@wms/kit/db';
import { uuidv7 } from '@wms/kit/ids';
import { callerOf } from '@wms/kit/caller';
import { type Channel, validateNewChannel } from './domain/channel.ts';
import { workspaceChannel } from './domain/events.ts';
import type { ChannelStore } from './store/channel.store.ts';
import { requireChannel } from './lookups.ts';
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
    const { workspaceId, actorId } = callerOf(ctx);
    return this.d.db.transaction(async (trx) => {
      const channel = await this.d.channels.insert({ id: uuidv7(), workspaceId, ...fields, createdByActorId: actorId }, trx);
      await this.d.outbox.append(trx, [
        {
          workspaceId,
          channel: workspaceChannel(workspaceId),
          event: 'channel.created',
          payload: { event_id: randomUUID(), channel: channelView(channel) },
          ref: { type: 'channel', id: channel.id, conversation_id: channel.id },
        },
      ]);
      return channel;
    });
  }

  listChannels(ctx: CallContext): Promise<Channel[]> {
    return this.d.channels.list(callerOf(ctx).workspaceId);
  }

  async getChannel(ctx: CallContext, id: string): Promise<Channel> {
    return requireChannel(this.d.channels, callerOf(ctx).workspaceId, id);
  }
}
