import { createDb, runMigrationRole } from '@wms/kit/db';
import { createAsyncClient } from '@wms/kit/grpc-client';
import { bindHandlers, onShutdown, startGrpcServer, startHealthServer } from '@wms/kit/grpc-server';
import { postgresCheck, redisCheck } from '@wms/kit/health';
import { createLogger } from '@wms/kit/logger';
import { startProcessMetrics } from '@wms/kit/metrics';
import { startScheduledWorker } from '@wms/kit/queues';
import { createStorage, storageConfigFrom } from '@wms/kit/storage';
import { loadProto } from '@wms/protos';
import { migrations } from '../migrations/index.ts';
import { AssetService } from './asset.service.ts';
import { loadAssetConfig } from './config.ts';
import { queueNames, SWEEP_EVERY_MS, SWEEP_JOB } from './queues.ts';
import { assetHandlers } from './rpc.ts';
import { AssetStore } from './store/asset.store.ts';
import { cleanupProcessor } from './workers/cleanup.worker.ts';

const config = loadAssetConfig();
const log = createLogger(config.ROLE === 'worker' ? 'asset-worker' : 'asset', config.LOG_LEVEL);
const db = createDb({ url: config.DATABASE_URL, schema: config.DATABASE_SCHEMA, log });

if (config.ROLE === 'migrate') {
  await runMigrationRole(db, config.DATABASE_SCHEMA, migrations, log);
} else if (config.ROLE === 'worker') {
  const { metrics, server: metricsServer } = await startProcessMetrics({ port: config.METRICS_PORT, host: config.GRPC_HOST, log, db });
  const sweeper = await startScheduledWorker(queueNames.cleanup, {
    job: SWEEP_JOB,
    everyMs: SWEEP_EVERY_MS,
    processor: cleanupProcessor({ assets: new AssetStore(db), storage: createStorage(storageConfigFrom(config)), log }),
    redisUrl: config.REDIS_URL,
    prefix: config.REDIS_PREFIX,
    log,
    metrics,
  });
  // grpc.health.v1 only, for the chart's probes: NOT_SERVING while Postgres or the worker's Redis is down.
  const health = await startHealthServer({ port: config.GRPC_PORT, host: config.GRPC_HOST, dependencies: { checks: [postgresCheck(db), redisCheck(sweeper.connection)], log } });
  log.info({ host: config.GRPC_HOST, port: health.port, metrics_port: metricsServer.port }, 'asset worker running');
  onShutdown(log, [
    ['health', () => health.stop()],
    ['worker', () => sweeper.close()],
    ['db', () => db.destroy()],
    ['metrics', () => metricsServer.close()],
  ]);
} else {
  const { metrics, server: metricsServer } = await startProcessMetrics({ port: config.METRICS_PORT, host: config.GRPC_HOST, log, db });
  const messaging = createAsyncClient(loadProto('messaging').wms.messaging.v1.MessagingService, config.MESSAGING_GRPC_URL);
  const service = new AssetService({ assets: new AssetStore(db), storage: createStorage(storageConfigFrom(config)), messaging, log });
  const { AssetService: definition } = loadProto('asset').wms.asset.v1;
  const server = await startGrpcServer({
    port: config.GRPC_PORT,
    host: config.GRPC_HOST,
    services: [{ definition: definition.service, implementation: bindHandlers(definition.service, assetHandlers(service), log, metrics) }],
    // The server role holds no Redis client.
    dependencies: { checks: [postgresCheck(db)], log },
  });
  log.info({ host: config.GRPC_HOST, port: server.port, metrics_port: metricsServer.port }, 'asset serving');
  onShutdown(log, [
    ['grpc', () => server.stop()],
    ['messaging client', async () => messaging.close()],
    ['db', () => db.destroy()],
    ['metrics', () => metricsServer.close()],
  ]);
}
