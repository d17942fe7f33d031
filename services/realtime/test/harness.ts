import { randomUUID } from 'node:crypto';
import type { CallContext } from '@wms/kit/context';
import { createDb, type Knex } from '@wms/kit/db';
import { type AsyncClient, createAsyncClient } from '@wms/kit/grpc-client';
import { bindHandlers, type RunningGrpcServer, startGrpcServer } from '@wms/kit/grpc-server';
import { createLogger } from '@wms/kit/logger';
import { ProcessMetrics } from '@wms/kit/metrics';
import type { StartedRole } from '@wms/kit/service';
import { loadService } from '@wms/protos';
import type { RealtimeServiceDefinition } from '@wms/protos/gen/wms/realtime/v1/RealtimeService';
import { createTestDatabase, dropRedisPrefix, testRedis, testRedisEnv, testRedisPrefix } from '@wms/testkit';
import { migrations } from '../migrations/index.ts';
import type { MessagingClient, WorkspaceClient } from '../src/adapters/peers.ts';
import { loadRealtimeConfig, type RealtimeConfig } from '../src/config.ts';
import type { ProviderSettings } from '../src/domain/provider.ts';
import { occupancyChecks } from '../src/queues.ts';
import { realtimeHandlers } from '../src/rpc.ts';
import { buildRealtimeServices, buildRealtimeWorkers, deliveryOf, openProducers } from '../src/wiring.ts';
import { startRealtimeWorker } from '../src/worker.ts';

export const log = createLogger('realtime-test', 'silent');

/** A member of a workspace, as the gateway passes it on. */
export interface TestCaller {
  userId: string;
  workspaceId: string;
  actorId: string;
}

export const newCaller = (workspaceId: string = randomUUID()): TestCaller => ({
  userId: randomUUID(),
  workspaceId,
  actorId: randomUUID(),
});
export const ctxOf = (c: TestCaller): CallContext => ({
  requestId: randomUUID(),
  userId: c.userId,
  workspaceId: c.workspaceId,
  actorId: c.actorId,
});

/**
 * Peers that know nothing: conversations are not found, actors unknown; catch-up keeps every conversation's events
 * (each is readable, as a public one is). Tests replace what they need.
 */
export const nobody = {
  messaging: {
    GetChannel: async () => Promise.reject(new Error('no messaging in this test')),
    ReadableConversations: async ({ ids }: { ids?: string[] }) => ({ ids: ids ?? [] }),
  } as MessagingClient,
  workspace: { GetActorsByIds: async () => ({ actors: [] }) } as unknown as WorkspaceClient,
};

/**
 * The realtime service on its own database and Redis prefix, serving gRPC on a free port, with the worker's
 * services at hand (and its whole role, queues included, on `startWorker`).
 */
export async function startRealtime(o: {
  provider: ProviderSettings;
  messaging?: MessagingClient;
  workspace?: WorkspaceClient;
  env?: Record<string, string>;
}) {
  const database = await createTestDatabase('realtime', migrations);
  const db: Knex = createDb({ url: database.url, schema: 'realtime', log });
  const prefix = testRedisPrefix();
  const config: RealtimeConfig = loadRealtimeConfig({
    LOG_LEVEL: 'silent',
    DATABASE_URL: database.url,
    ...testRedisEnv,
    REDIS_PREFIX: prefix,
    PUBLIC_URL: 'http://gateway.test:8080',
    PUSHER_APP_ID: o.provider.appId,
    PUSHER_KEY: o.provider.key,
    PUSHER_SECRET: o.provider.secret,
    PUSHER_HOST: o.provider.host,
    PUSHER_PORT: String(o.provider.port),
    ...o.env,
  });
  const producers = openProducers(config, log);
  // The server role drains what PublishEvents stored at once; a test that needs stored events to wait holds that.
  const serverDelivery = deliveryOf({ db, provider: o.provider, log });
  let held = false;
  const services = buildRealtimeServices({
    db,
    provider: o.provider,
    publicUrl: config.PUBLIC_URL,
    messaging: o.messaging ?? nobody.messaging,
    workspace: o.workspace ?? nobody.workspace,
    delivery: { nudge: async () => void (held || (await serverDelivery.nudge())) },
    occupancy: occupancyChecks(producers.occupancy),
  });
  const workers = buildRealtimeWorkers({ db, provider: o.provider, log });
  const Realtime = loadService('realtime');
  const server: RunningGrpcServer = await startGrpcServer({
    port: 0,
    host: '127.0.0.1',
    services: [
      { definition: Realtime.service, implementation: bindHandlers(Realtime.service, realtimeHandlers(services), log) },
    ],
  });
  const client: AsyncClient<RealtimeServiceDefinition> & { close(): void } = createAsyncClient(
    Realtime,
    `127.0.0.1:${server.port}`,
  );
  let worker: StartedRole | undefined;

  const stopWorker = async () => {
    for (const [, step] of worker?.stop ?? []) await step();
    worker = undefined;
  };
  return {
    db,
    config,
    producers,
    services,
    workers,
    client,
    /** The worker role as `main.ts` runs it: both queues' workers and their schedules. */
    async startWorker() {
      worker = await startRealtimeWorker(config, { db, log, metrics: new ProcessMetrics() });
    },
    stopWorker,
    /** While held, what PublishEvents stores waits for a drain the test runs (or the worker's sweep). */
    holdDeliveries(hold: boolean) {
      held = hold;
    },
    async close() {
      await stopWorker();
      client.close();
      await server.stop();
      await serverDelivery.drained();
      await producers.close();
      await db.destroy();
      await dropRedisPrefix(testRedis, prefix);
      await database.drop();
    },
  };
}

export type Realtime = Awaited<ReturnType<typeof startRealtime>>;
