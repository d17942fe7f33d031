import { createDb, runMigrationRole } from '@wms/kit/db';
import { createAsyncClient } from '@wms/kit/grpc-client';
import { bindHandlers, onShutdown, startGrpcServer, startHealthServer } from '@wms/kit/grpc-server';
import { postgresCheck, redisCheck } from '@wms/kit/health';
import { createLogger } from '@wms/kit/logger';
import { startProcessMetrics } from '@wms/kit/metrics';
import { createQueue, createQueueEvents, createWorker, producerConnection, workerConnection } from '@wms/kit/queues';
import { createRedis, redisReady } from '@wms/kit/redis';
import { createStorage, storageConfigFrom } from '@wms/kit/storage';
import { loadProto } from '@wms/protos';
import { migrations } from '../migrations/index.ts';
import { loadWorkspaceConfig } from './config.ts';
import { type AvatarResizeJob, type AvatarResizeResult, queueNames, type WorkspacePurgeJob } from './queues.ts';
import { workspaceHandlers } from './rpc.ts';
import { AvatarStore } from './store/avatar.store.ts';
import { WorkspaceStore } from './store/workspace.store.ts';
import { buildWorkspaceServices } from './wiring.ts';
import { avatarResizeProcessor } from './workers/avatar-resize.worker.ts';
import { workspacePurgeProcessor } from './workers/workspace-purge.worker.ts';

const config = loadWorkspaceConfig();
const log = createLogger(config.ROLE === 'worker' ? 'workspace-worker' : 'workspace', config.LOG_LEVEL);
const db = createDb({ url: config.DATABASE_URL, schema: config.DATABASE_SCHEMA, log });
const queueBase = { prefix: config.REDIS_PREFIX, log };

if (config.ROLE === 'migrate') {
  await runMigrationRole(db, config.DATABASE_SCHEMA, migrations, log);
} else if (config.ROLE === 'worker') {
  const { metrics, server: metricsServer } = await startProcessMetrics({ port: config.METRICS_PORT, host: config.GRPC_HOST, log, db });
  const storage = createStorage(storageConfigFrom(config));
  const connection = workerConnection(config.REDIS_URL, log);
  const resize = createWorker(queueNames.avatarResize, avatarResizeProcessor(storage), { ...queueBase, connection, concurrency: 2, metrics });
  const messaging = createAsyncClient(loadProto('messaging').wms.messaging.v1.MessagingService, config.MESSAGING_GRPC_URL);
  const assets = createAsyncClient(loadProto('asset').wms.asset.v1.AssetService, config.ASSET_GRPC_URL);
  const purge = createWorker(
    queueNames.workspacePurge,
    workspacePurgeProcessor({ storage, avatars: new AvatarStore(db), workspaces: new WorkspaceStore(db), holders: [messaging, assets] }),
    { ...queueBase, connection, metrics },
  );
  await redisReady(connection);
  // grpc.health.v1 only, for the chart's probes: NOT_SERVING while Postgres or the workers' Redis is down.
  const health = await startHealthServer({ port: config.GRPC_PORT, host: config.GRPC_HOST, dependencies: { checks: [postgresCheck(db), redisCheck(connection)], log } });
  log.info({ host: config.GRPC_HOST, port: health.port, metrics_port: metricsServer.port }, 'workspace worker running');
  onShutdown(log, [
    ['health', () => health.stop()],
    ['workers', () => Promise.all([resize.close(), purge.close()])],
    ['clients', async () => [messaging, assets].forEach((c) => c.close())],
    ['redis', () => connection.quit()],
    ['db', () => db.destroy()],
    ['metrics', () => metricsServer.close()],
  ]);
} else {
  const { metrics, server: metricsServer } = await startProcessMetrics({ port: config.METRICS_PORT, host: config.GRPC_HOST, log, db });
  const redis = createRedis(config.REDIS_URL, config.REDIS_PREFIX, log);
  await redisReady(redis);
  const producer = producerConnection(config.REDIS_URL, log);
  const listener = workerConnection(config.REDIS_URL, log);
  const resizeQueue = createQueue<AvatarResizeJob, AvatarResizeResult>(queueNames.avatarResize, { ...queueBase, connection: producer });
  const purgeQueue = createQueue<WorkspacePurgeJob>(queueNames.workspacePurge, { ...queueBase, connection: producer });
  const resizeEvents = createQueueEvents(queueNames.avatarResize, { ...queueBase, connection: listener });
  await Promise.all([resizeEvents.waitUntilReady(), resizeQueue.waitUntilReady(), purgeQueue.waitUntilReady()]);
  const identity = createAsyncClient(loadProto('identity').wms.identity.v1.IdentityService, config.IDENTITY_GRPC_URL);
  const { workspaces, avatars } = buildWorkspaceServices({
    db,
    redis,
    storage: createStorage(storageConfigFrom(config)),
    identity,
    resizeQueue,
    resizeEvents,
    purgeQueue,
  });
  const { WorkspaceService: definition } = loadProto('workspace').wms.workspace.v1;
  const server = await startGrpcServer({
    port: config.GRPC_PORT,
    host: config.GRPC_HOST,
    services: [{ definition: definition.service, implementation: bindHandlers(definition.service, workspaceHandlers(workspaces, avatars), log, metrics) }],
    dependencies: { checks: [postgresCheck(db), redisCheck([redis, producer])], log },
  });
  log.info({ host: config.GRPC_HOST, port: server.port, metrics_port: metricsServer.port }, 'workspace serving');
  onShutdown(log, [
    ['grpc', () => server.stop()],
    ['queues', () => Promise.all([resizeEvents.close(), resizeQueue.close(), purgeQueue.close()])],
    ['identity', async () => identity.close()],
    ['redis', () => Promise.all([redis.quit(), producer.quit(), listener.quit()])],
    ['db', () => db.destroy()],
    ['metrics', () => metricsServer.close()],
  ]);
}
