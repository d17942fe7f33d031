import { type Knex, transactor } from '@wms/kit/db';
import { connectPeer } from '@wms/kit/grpc-client';
import { redisCheck } from '@wms/kit/health';
import type { Logger } from '@wms/kit/logger';
import { producerConnection } from '@wms/kit/queues';
import type { ProcessBase, StartedServer } from '@wms/kit/service';
import { actorProfilesOf, conversationsOf, type MessagingClient, type WorkspaceClient } from './adapters/peers.ts';
import { PusherProvider, pusherClient } from './adapters/pusher.ts';
import { AuthService } from './auth.service.ts';
import type { RealtimeConfig } from './config.ts';
import { DeliveryService } from './delivery.service.ts';
import { clientConfigOf, type ProviderSettings } from './domain/provider.ts';
import { type DeliveryNudge, EventService } from './events.service.ts';
import { OccupancyService } from './occupancy.service.ts';
import { type OccupancyChecks, PresenceService } from './presence.service.ts';
import { eventsQueue, occupancyChecks, occupancyQueue } from './queues.ts';
import { realtimeHandlers, type RealtimeServices } from './rpc.ts';
import { EventStore } from './store/event.store.ts';
import { PresenceStore } from './store/presence.store.ts';
import { redisTarget } from '@wms/kit/redis';

export const providerSettingsOf = (c: RealtimeConfig): ProviderSettings => ({
  appId: c.PUSHER_APP_ID,
  key: c.PUSHER_KEY,
  secret: c.PUSHER_SECRET,
  host: c.PUSHER_HOST,
  port: c.PUSHER_PORT,
  useTls: c.PUSHER_USE_TLS,
  cluster: c.PUSHER_CLUSTER,
});

/** The server role's services over one pool (tests build them here too). */
export function buildRealtimeServices(d: {
  db: Knex;
  provider: ProviderSettings;
  publicUrl: string;
  messaging: MessagingClient;
  workspace: WorkspaceClient;
  delivery: DeliveryNudge;
  occupancy: OccupancyChecks;
}): RealtimeServices {
  const presence = new PresenceStore(d.db);
  const conversations = conversationsOf(d.messaging);
  return {
    auth: new AuthService({
      clientConfig: clientConfigOf(d.provider, d.publicUrl),
      signer: new PusherProvider(pusherClient(d.provider)),
      conversations,
      actors: actorProfilesOf(d.workspace),
      presence,
    }),
    events: new EventService({
      transact: transactor(d.db),
      events: new EventStore(d.db),
      conversations,
      delivery: d.delivery,
    }),
    presence: new PresenceService({ app: d.provider, presence, occupancy: d.occupancy }),
  };
}

/** The worker role's services: delivery to the provider and presence reconciliation (tests build them here too). */
export function buildRealtimeWorkers(d: { db: Knex; provider: ProviderSettings; log: Logger }): {
  delivery: DeliveryService;
  occupancy: OccupancyService;
} {
  const delivery = deliveryOf(d);
  const occupancy = new OccupancyService({
    transact: transactor(d.db),
    presence: new PresenceStore(d.db),
    events: new EventStore(d.db),
    provider: new PusherProvider(pusherClient(d.provider)),
    // What a reconciliation stores, this process delivers.
    delivery,
  });
  return { delivery, occupancy };
}

/**
 * Delivery by the process that stored the events (the server role: what `PublishEvents` stores), so that no job in a
 * queue stands between an event and the provider: a process that dies mid-drain leaves nothing that holds back the
 * next drain (its transaction, and the delivery lock with it, end with its connection).
 */
export function deliveryOf(d: { db: Knex; provider: ProviderSettings; log: Logger }): DeliveryService {
  const provider = new PusherProvider(pusherClient(d.provider));
  return new DeliveryService({ transact: transactor(d.db), events: new EventStore(d.db), provider, log: d.log });
}

/** The queues' producers on one Redis connection, for the server and the worker role. */
export function openProducers(config: RealtimeConfig, log: Logger) {
  const connection = producerConnection(redisTarget(config), log);
  const events = eventsQueue(connection, config.REDIS_PREFIX, log);
  const occupancy = occupancyQueue(connection, config.REDIS_PREFIX, log);
  return {
    connection,
    events,
    occupancy,
    async close() {
      await Promise.all([events.close(), occupancy.close()]);
      await connection.quit();
    },
  };
}

/** The server role: the service's RPCs, and the queues' producers (events to deliver, webhooks to check). */
export async function startRealtimeServer(
  config: RealtimeConfig,
  { db, log }: ProcessBase,
): Promise<StartedServer<'realtime'>> {
  const producers = openProducers(config, log);
  const delivery = deliveryOf({ db, provider: providerSettingsOf(config), log });
  const workspace = connectPeer('workspace', config.WORKSPACE_GRPC_URL);
  const messaging = connectPeer('messaging', config.MESSAGING_GRPC_URL);
  const services = buildRealtimeServices({
    db,
    provider: providerSettingsOf(config),
    publicUrl: config.PUBLIC_URL,
    messaging,
    workspace,
    delivery,
    occupancy: occupancyChecks(producers.occupancy),
  });
  return {
    handlers: realtimeHandlers(services),
    checks: [redisCheck(producers.connection)],
    stop: [
      // After the gRPC server: the calls it finished may have stored events.
      ['deliveries', () => delivery.drained()],
      ['queues', () => producers.close()],
      ['clients', async () => [workspace, messaging].forEach((c) => c.close())],
    ],
  };
}
