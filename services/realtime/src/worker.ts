import { redisCheck } from '@wms/kit/health';
import { createWorker, workerConnection } from '@wms/kit/queues';
import { redisReady } from '@wms/kit/redis';
import type { ProcessBase, StartedRole } from '@wms/kit/service';
import type { RealtimeConfig } from './config.ts';
import { queueNames, scheduleSweeps } from './queues.ts';
import { buildRealtimeWorkers, openProducers, providerSettingsOf } from './wiring.ts';
import { eventsProcessor } from './workers/events.worker.ts';
import { occupancyProcessor } from './workers/occupancy.worker.ts';

/** The worker role: triggers stored events on the provider in order, and reconciles presence with it. */
export async function startRealtimeWorker(
  config: RealtimeConfig,
  { db, log, metrics }: ProcessBase,
): Promise<StartedRole> {
  const producers = openProducers(config, log);
  const { delivery, occupancy } = buildRealtimeWorkers({
    db,
    provider: providerSettingsOf(config),
    delivery: producers.delivery,
    log,
  });
  const connection = workerConnection(config.REDIS_URL, log);
  const base = { prefix: config.REDIS_PREFIX, log, connection, metrics };
  // One job at a time on each queue: a drain keeps the order, a reconciliation takes the presence lock anyway.
  const eventsWorker = createWorker(queueNames.events, eventsProcessor({ delivery, log }), base);
  const occupancyWorker = createWorker(queueNames.occupancy, occupancyProcessor({ occupancy, log }), base);
  await redisReady(connection);
  await scheduleSweeps(producers.events, producers.occupancy, config.PRESENCE_SWEEP_MS);
  return {
    checks: [redisCheck([connection, producers.connection])],
    stop: [
      ['workers', () => Promise.all([eventsWorker.close(), occupancyWorker.close()])],
      ['queues', () => producers.close()],
      ['redis', () => connection.quit()],
    ],
  };
}
