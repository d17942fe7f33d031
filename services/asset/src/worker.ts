import { redisCheck } from '@wms/kit/health';
import { startScheduledWorker } from '@wms/kit/queues';
import type { ProcessBase, StartedRole } from '@wms/kit/service';
import { createStorage, storageConfigFrom } from '@wms/kit/storage';
import type { AssetConfig } from './config.ts';
import { queueNames, SWEEP_JOB } from './queues.ts';
import { AssetStore } from './store/asset.store.ts';
import { cleanupProcessor } from './workers/cleanup.worker.ts';
import { redisTarget } from '@wms/kit/redis';

/** The worker role: the cleanup sweep of unattached reservations. */
export async function startAssetWorker(config: AssetConfig, { db, log, metrics }: ProcessBase): Promise<StartedRole> {
  const sweeper = await startScheduledWorker(queueNames.cleanup, {
    job: SWEEP_JOB,
    everyMs: config.CLEANUP_SWEEP_MS,
    processor: cleanupProcessor({ assets: new AssetStore(db), storage: createStorage(storageConfigFrom(config)), log }),
    redis: redisTarget(config),
    prefix: config.REDIS_PREFIX,
    log,
    metrics,
  });
  return { checks: [redisCheck(sweeper.connection)], stop: [['worker', () => sweeper.close()]] };
}
