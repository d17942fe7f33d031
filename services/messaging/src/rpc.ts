import type { AsyncHandlers } from '@wms/kit/grpc-server';
import type { Channel as ChannelMessage } from '@wms/protos/gen/wms/messaging/v1/Channel';
import type { MessagingServiceDefinition } from '@wms/protos/gen/wms/messaging/v1/MessagingService';
import type { ChannelService } from './channel.service.ts';
import type { Channel } from './domain/channel.ts';

const toChannel = (c: Channel): ChannelMessage => ({
  id: c.id,
  workspace_id: c.workspaceId,
  name: c.name,
  topic: c.topic ?? undefined,
  created_by_actor_id: c.createdByActorId,
  created_at: c.createdAt.toISOString(),
  updated_at: c.updatedAt.toISOString(),
});

export function messagingHandlers(channels: ChannelService): AsyncHandlers<MessagingServiceDefinition> {
  return {
    CreateChannel: async (req, ctx) => toChannel(await channels.createChannel(ctx, { name: req.name, topic: req.topic })),
    ListChannels: async (_req, ctx) => ({ channels: (await channels.listChannels(ctx)).map(toChannel) }),
    GetChannel: async (req, ctx) => toChannel(await channels.getChannel(ctx, req.channel_id)),
  };
}
