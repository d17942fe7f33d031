import type { Logger } from '@wms/kit/logger';
import { createQueue, type JobsOptions, type Queue } from '@wms/kit/queues';
import type { Redis } from '@wms/kit/redis';
import type { DeliveryNudge } from './events.service.ts';
import type { OccupancyChecks } from './presence.service.ts';

/** Queues of the realtime service: both are produced by the server role (and the worker itself) and consumed by the worker. */
export const queueNames = { events: 'realtime-events', occupancy: 'realtime-occupancy' } as const;

/**
 * `realtime-events`: `drain` (a nudge after events were stored) and the scheduled `sweep` both trigger every
 * waiting event; the scheduled `expire` removes events past their retention.
 */
export type EventsJob = { name: 'drain' | 'sweep' | 'expire'; data: Record<string, never> };

/** `realtime-occupancy`: `check` the channels a webhook named; the scheduled `sweep` checks them all. */
export type OccupancyJob =
  { name: 'check'; data: { channels: string[] } } | { name: 'sweep'; data: Record<string, never> };

/** A sweep of waiting events repairs nudges lost to a Redis outage and retries a provider that was down. */
export const EVENTS_SWEEP_MS = 2000;
export const EXPIRE_EVERY_MS = 10 * 60 * 1000;

/** Scheduled jobs retry by being scheduled again; one attempt each keeps an outage from piling up retries. */
const SCHEDULED: JobsOptions = { attempts: 1, removeOnComplete: true, removeOnFail: 100 };

export const eventsQueue = (connection: Redis, prefix: string, log: Logger) =>
  createQueue<EventsJob['data']>(queueNames.events, { connection, prefix, log });
export const occupancyQueue = (connection: Redis, prefix: string, log: Logger) =>
  createQueue<OccupancyJob['data']>(queueNames.occupancy, { connection, prefix, log });

/**
 * Nudges the drainer: at most one drain waits while one runs (a nudge during a drain is kept for after it, so an
 * event stored at its very end is not left for the sweep). A failed nudge is only logged: the sweep drains too.
 */
export function deliveryNudge(queue: Queue<EventsJob['data']>, log: Logger): DeliveryNudge {
  return {
    async nudge() {
      try {
        await queue.add(
          'drain',
          {},
          { deduplication: { id: 'drain', keepLastIfActive: true }, removeOnComplete: true },
        );
      } catch (err) {
        log.warn({ err }, 'could not nudge event delivery; the sweep will deliver');
      }
    },
  };
}

/** Occupancy checks of a webhook's channels; the webhook's signature names the job, so a redelivery adds none. */
export const occupancyChecks = (queue: Queue<OccupancyJob['data']>): OccupancyChecks => ({
  async check(id, channels) {
    await queue.add('check', { channels }, { jobId: `webhook-${id}` });
  },
});

/** The worker's repeated jobs (one schedule across all replicas). */
export async function scheduleSweeps(
  events: Queue<EventsJob['data']>,
  occupancy: Queue<OccupancyJob['data']>,
  presenceSweepMs: number,
): Promise<void> {
  await events.upsertJobScheduler('sweep', { every: EVENTS_SWEEP_MS }, { name: 'sweep', opts: SCHEDULED });
  await events.upsertJobScheduler('expire', { every: EXPIRE_EVERY_MS }, { name: 'expire', opts: SCHEDULED });
  await occupancy.upsertJobScheduler('sweep', { every: presenceSweepMs }, { name: 'sweep', opts: SCHEDULED });
}
