import { connectPeer } from '@wms/kit/grpc-client';
import { redisCheck } from '@wms/kit/health';
import { relayToRealtime } from '@wms/kit/outbox-relay';
import { startScheduledWorker } from '@wms/kit/queues';
import type { ProcessBase, StartedRole } from '@wms/kit/service';
import { Attachments } from './adapters/attachments.ts';
import type { MessagingConfig } from './config.ts';
import { queueNames, SWEEP_JOB } from './queues.ts';
import { MessageStore } from './store/message.store.ts';
import { requireSearchConfig } from './wiring.ts';
import { cleanupProcessor } from './workers/cleanup.worker.ts';
import { redisTarget } from '@wms/kit/redis';

/**
 * The worker role: the outbox relay, which hands committed events to the realtime service, and the cleanup sweep of
 * deleted messages' assets and expired client_message_id claims, which also fills in older messages' search vectors.
 */
export async function startMessagingWorker(
  config: MessagingConfig,
  { db, log, metrics }: ProcessBase,
): Promise<StartedRole> {
  // First: the relay needs Postgres and realtime only, so a Redis that is down at start does not hold events back.
  await requireSearchConfig(db, config.SEARCH_TEXT_CONFIG);
  const relay = relayToRealtime({
    db,
    schema: config.DATABASE_SCHEMA,
    source: 'messaging',
    realtimeUrl: config.REALTIME_GRPC_URL,
    log,
  });
  const assets = connectPeer('asset', config.ASSET_GRPC_URL);
  const sweeper = await startScheduledWorker(queueNames.cleanup, {
    job: SWEEP_JOB,
    everyMs: config.CLEANUP_SWEEP_MS,
    processor: cleanupProcessor({
      messages: new MessageStore(db, config.SEARCH_TEXT_CONFIG),
      attachments: new Attachments(assets),
      log,
    }),
    redis: redisTarget(config),
    prefix: config.REDIS_PREFIX,
    log,
    metrics,
  });
  return {
    checks: [redisCheck(sweeper.connection)],
    stop: [
      ['outbox relay', () => relay.stop()],
      ['worker', () => sweeper.close()],
      ['clients', async () => assets.close()],
    ],
  };
}
