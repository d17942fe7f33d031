import { transactor } from '@wms/kit/db';
import { redisCheck } from '@wms/kit/health';
import { createWorker, workerConnection } from '@wms/kit/queues';
import { redisReady, redisTarget } from '@wms/kit/redis';
import type { ProcessBase, StartedRole } from '@wms/kit/service';
import type { RealtimeConfig } from './config.ts';
import { startWalStream } from './adapters/wal-stream.ts';
import { followEvents } from './event-follower.ts';
import { queueNames, scheduleSweeps } from './queues.ts';
import { EventStore } from './store/event.store.ts';
import { ensureEventSlot, EVENTS_PUBLICATION, eventSlotName, replaceEventSlot } from './store/event-slot.ts';
import { buildRealtimeWorkers, openProducers, providerSettingsOf } from './wiring.ts';
import { eventsProcessor } from './workers/events.worker.ts';
import { occupancyProcessor } from './workers/occupancy.worker.ts';

/**
 * The worker role: follows the events the data owners commit and stores them (one replica at a time, the one holding
 * the replication slot), triggers stored events on the provider in order, and reconciles presence with it.
 */
export async function startRealtimeWorker(
  config: RealtimeConfig,
  { db, log, metrics }: ProcessBase,
): Promise<StartedRole> {
  const { delivery, occupancy } = buildRealtimeWorkers({
    db,
    provider: providerSettingsOf(config),
    log,
  });
  // First, since it needs Postgres alone: live events do not wait for Redis. The migrate role made the slot; one made
  // here (it had been dropped) follows what commits from now on.
  if (await ensureEventSlot(db, log))
    log.warn('the events slot was missing: events committed before now are not delivered');
  const slot = await eventSlotName(db);
  const follower = followEvents({
    connect: (handlers) =>
      startWalStream({ url: config.DATABASE_URL, slot, publication: EVENTS_PUBLICATION }, handlers),
    transact: transactor(db),
    events: new EventStore(db),
    stored: () => void delivery.nudge(),
    log,
    recreateSlot: () => replaceEventSlot(db, log),
  });
  const producers = openProducers(config, log);
  const connection = workerConnection(redisTarget(config), log);
  const base = { prefix: config.REDIS_PREFIX, log, connection, metrics };
  // One job at a time on each queue: a drain keeps the order, a reconciliation takes the presence lock anyway.
  const eventsWorker = createWorker(queueNames.events, eventsProcessor({ delivery, log }), base);
  const occupancyWorker = createWorker(queueNames.occupancy, occupancyProcessor({ occupancy, log }), base);
  await redisReady(connection);
  await scheduleSweeps(producers.events, producers.occupancy, config.PRESENCE_SWEEP_MS);
  return {
    checks: [redisCheck([connection, producers.connection])],
    stop: [
      ['event follower', () => follower.stop()],
      // After the queues' jobs, which may ask for a drain too.
      ['workers', () => Promise.all([eventsWorker.close(), occupancyWorker.close()])],
      ['deliveries', () => delivery.drained()],
      ['queues', () => producers.close()],
      ['redis', () => connection.quit()],
    ],
  };
}
