import { connectPeer } from '@wms/kit/grpc-client';
import { redisCheck } from '@wms/kit/health';
import { relayToRealtime } from '@wms/kit/outbox-relay';
import { createWorker, workerConnection } from '@wms/kit/queues';
import { redisReady, redisTarget } from '@wms/kit/redis';
import type { ProcessBase, StartedRole } from '@wms/kit/service';
import { createStorage, storageConfigFrom } from '@wms/kit/storage';
import type { WorkspaceConfig } from './config.ts';
import { queueNames } from './queues.ts';
import { buildWorkspaceStores } from './wiring.ts';
import { avatarResizeProcessor } from './workers/avatar-resize.worker.ts';
import { workspacePurgeProcessor } from './workers/workspace-purge.worker.ts';

/**
 * The worker role: the outbox relay, which hands committed events to the realtime service; rendering avatars; purging
 * deleted workspaces, here and in the services that hold their data.
 */
export async function startWorkspaceWorker(
  config: WorkspaceConfig,
  { db, log, metrics }: ProcessBase,
): Promise<StartedRole> {
  // First: the relay needs Postgres and realtime only, so a Redis that is down at start does not hold events back.
  const relay = relayToRealtime({
    db,
    schema: config.DATABASE_SCHEMA,
    source: 'workspace',
    realtimeUrl: config.REALTIME_GRPC_URL,
    log,
  });
  const { workspaces, avatars } = buildWorkspaceStores(db);
  const storage = createStorage(storageConfigFrom(config));
  const connection = workerConnection(redisTarget(config), log);
  const base = { prefix: config.REDIS_PREFIX, log, connection, metrics };
  const resize = createWorker(queueNames.avatarResize, avatarResizeProcessor(storage), { ...base, concurrency: 2 });
  const messaging = connectPeer('messaging', config.MESSAGING_GRPC_URL);
  const assets = connectPeer('asset', config.ASSET_GRPC_URL);
  const purge = createWorker(
    queueNames.workspacePurge,
    workspacePurgeProcessor({ storage, avatars, workspaces, holders: [messaging, assets] }),
    base,
  );
  await redisReady(connection);
  return {
    checks: [redisCheck(connection)],
    stop: [
      ['outbox relay', () => relay.stop()],
      ['workers', () => Promise.all([resize.close(), purge.close()])],
      ['clients', async () => [messaging, assets].forEach((c) => c.close())],
      ['redis', () => connection.quit()],
    ],
  };
}
