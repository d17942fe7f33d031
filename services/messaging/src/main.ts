import { createDb, runMigrationRole } from '@wms/kit/db';
import { createAsyncClient } from '@wms/kit/grpc-client';
import { bindHandlers, onShutdown, startGrpcServer, startHealthServer } from '@wms/kit/grpc-server';
import { postgresCheck, redisCheck } from '@wms/kit/health';
import { createLogger } from '@wms/kit/logger';
import { startProcessMetrics } from '@wms/kit/metrics';
import { startScheduledWorker } from '@wms/kit/queues';
import { loadProto } from '@wms/protos';
import { migrations } from '../migrations/index.ts';
import { Attachments } from './attachments.ts';
import { ChannelService } from './channel.service.ts';
import { loadMessagingConfig } from './config.ts';
import { MessageActionsService } from './message-actions.service.ts';
import { MessageService } from './message.service.ts';
import { ReadStateService } from './read-state.service.ts';
import { queueNames, SWEEP_EVERY_MS, SWEEP_JOB } from './queues.ts';
import { messagingHandlers } from './rpc.ts';
import { ChannelStore } from './store/channel.store.ts';
import { MessageStore } from './store/message.store.ts';
import { OutboxStore } from './store/outbox.store.ts';
import { PurgeStore } from './store/purge.store.ts';
import { ReactionStore } from './store/reaction.store.ts';
import { ReadStateStore } from './store/read-state.store.ts';
import { SavedStore } from './store/saved.store.ts';
import { cleanupProcessor } from './workers/cleanup.worker.ts';

const config = loadMessagingConfig();
const log = createLogger(config.ROLE === 'worker' ? 'messaging-worker' : 'messaging', config.LOG_LEVEL);
const db = createDb({ url: config.DATABASE_URL, schema: config.DATABASE_SCHEMA, log, poolMax: 20 });

if (config.ROLE === 'migrate') {
  await runMigrationRole(db, config.DATABASE_SCHEMA, migrations, log);
} else if (config.ROLE === 'worker') {
  const { metrics, server: metricsServer } = await startProcessMetrics({ port: config.METRICS_PORT, host: config.GRPC_HOST, log, db });
  const assets = createAsyncClient(loadProto('asset').wms.asset.v1.AssetService, config.ASSET_GRPC_URL);
  const sweeper = await startScheduledWorker(queueNames.cleanup, {
    job: SWEEP_JOB,
    everyMs: SWEEP_EVERY_MS,
    processor: cleanupProcessor({ messages: new MessageStore(db), attachments: new Attachments(assets), log }),
    redisUrl: config.REDIS_URL,
    prefix: config.REDIS_PREFIX,
    log,
    metrics,
  });
  // grpc.health.v1 only, for the chart's probes: NOT_SERVING while Postgres or the worker's Redis is down.
  const health = await startHealthServer({ port: config.GRPC_PORT, host: config.GRPC_HOST, dependencies: { checks: [postgresCheck(db), redisCheck(sweeper.connection)], log } });
  log.info({ host: config.GRPC_HOST, port: health.port, metrics_port: metricsServer.port }, 'messaging worker running');
  onShutdown(log, [
    ['health', () => health.stop()],
    ['worker', () => sweeper.close()],
    ['asset client', async () => assets.close()],
    ['db', () => db.destroy()],
    ['metrics', () => metricsServer.close()],
  ]);
} else {
  const { metrics, server: metricsServer } = await startProcessMetrics({ port: config.METRICS_PORT, host: config.GRPC_HOST, log, db });
  const workspace = createAsyncClient(loadProto('workspace').wms.workspace.v1.WorkspaceService, config.WORKSPACE_GRPC_URL);
  const assets = createAsyncClient(loadProto('asset').wms.asset.v1.AssetService, config.ASSET_GRPC_URL);
  const stores = {
    db,
    attachments: new Attachments(assets),
    channels: new ChannelStore(db),
    messages: new MessageStore(db),
    reactions: new ReactionStore(),
    saved: new SavedStore(db),
    readStates: new ReadStateStore(db),
    outbox: new OutboxStore(),
  };
  const services = {
    channels: new ChannelService(stores),
    messages: new MessageService({ ...stores, workspace, log }),
    actions: new MessageActionsService(stores),
    readStates: new ReadStateService(stores),
    purge: new PurgeStore(db),
  };
  const { MessagingService: definition } = loadProto('messaging').wms.messaging.v1;
  const server = await startGrpcServer({
    port: config.GRPC_PORT,
    host: config.GRPC_HOST,
    services: [{ definition: definition.service, implementation: bindHandlers(definition.service, messagingHandlers(services), log, metrics) }],
    // The server role holds no Redis client.
    dependencies: { checks: [postgresCheck(db)], log },
  });
  log.info({ host: config.GRPC_HOST, port: server.port, metrics_port: metricsServer.port }, 'messaging serving');
  onShutdown(log, [
    ['grpc', () => server.stop()],
    ['clients', async () => [workspace, assets].forEach((c) => c.close())],
    ['db', () => db.destroy()],
    ['metrics', () => metricsServer.close()],
  ]);
}
