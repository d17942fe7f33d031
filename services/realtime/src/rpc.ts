import type { ServiceHandlers } from '@wms/kit/grpc-server';
import type { DeliveredEvent } from '@wms/protos/gen/wms/realtime/v1/DeliveredEvent';
import type { RealtimeConfig as RealtimeConfigMessage } from '@wms/protos/gen/wms/realtime/v1/RealtimeConfig';
import type { AuthService } from './auth.service.ts';
import { parsePayload, type StoredEvent } from './domain/events.ts';
import type { ClientConfig } from './domain/provider.ts';
import type { EventService } from './events.service.ts';
import type { PresenceService } from './presence.service.ts';

export interface RealtimeServices {
  auth: AuthService;
  events: EventService;
  presence: PresenceService;
}

const toConfigMessage = (c: ClientConfig): RealtimeConfigMessage => ({
  app_key: c.appKey,
  cluster: c.cluster,
  ws_host: c.wsHost,
  ws_port: c.wsPort,
  wss_port: c.wssPort,
  ws_path: c.wsPath,
  force_tls: c.forceTls,
});

const toDeliveredEvent = (e: StoredEvent): DeliveredEvent => ({
  cursor: e.id,
  channel: e.channel,
  name: e.name,
  data: JSON.stringify(e.data),
  created_at: e.createdAt.toISOString(),
});

export function realtimeHandlers(s: RealtimeServices): ServiceHandlers<'realtime'> {
  return {
    GetRealtimeConfig: async () => toConfigMessage(s.auth.config()),
    AuthorizeChannel: async (req, ctx) => {
      const { auth, channelData } = await s.auth.authorizeChannel(ctx, req.socket_id, req.channel_name);
      return { auth, channel_data: channelData ?? undefined };
    },
    AuthenticateUser: async (req, ctx) => {
      const { auth, userData } = await s.auth.authenticateUser(ctx, req.socket_id);
      return { auth, user_data: userData };
    },
    ListPresence: async (_req, ctx) => ({
      items: (await s.presence.online(ctx)).map((p) => ({
        actor_id: p.actorId,
        status: 'online',
        since: p.since.toISOString(),
      })),
    }),
    AcceptWebhook: async (req) => {
      await s.presence.acceptWebhook({ rawBody: req.raw_body, key: req.key, signature: req.signature });
      return {};
    },
    PublishEvents: async (req) => ({
      accepted: await s.events.publish(
        req.source,
        req.events.map((e) => ({
          sourceId: e.source_id,
          workspaceId: e.workspace_id,
          channel: e.channel,
          name: e.name,
          payload: parsePayload(e.payload),
        })),
      ),
    }),
    ListEvents: async (req, ctx) => {
      const page = await s.events.catchUp(ctx, req.after, req.limit);
      return { items: page.items.map(toDeliveredEvent), next_cursor: page.nextCursor };
    },
  };
}
