import type { Logger } from '@wms/kit/logger';
import { createQueue, type JobsOptions, type Queue } from '@wms/kit/queues';
import type { Redis } from '@wms/kit/redis';
import type { OccupancyChecks } from './presence.service.ts';

/** Queues of the realtime service, consumed by the worker: events' schedules, and the server role's webhook checks. */
export const queueNames = { events: 'realtime-events', occupancy: 'realtime-occupancy' } as const;

/**
 * `realtime-events`: the scheduled `sweep` triggers every waiting event (events are drained by the process that stored
 * them, docs/realtime.md; the sweep is for what a failure left); the scheduled `expire` removes events past their
 * retention. `drain` is the previous release's nudge, which its realtime servers still send during a rolling upgrade.
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
