import type { Logger } from '@wms/kit/logger';
import { type Job, type Processor, UnrecoverableError } from '@wms/kit/queues';
import type { OccupancyService } from '../occupancy.service.ts';
import type { OccupancyJob } from '../queues.ts';

/** `realtime-occupancy`: reconcile the channels a webhook named, or sweep them all. */
export function occupancyProcessor(d: {
  occupancy: OccupancyService;
  log: Logger;
}): Processor<OccupancyJob['data'], number, string> {
  const run = (job: Job<OccupancyJob['data'], number, string>) => {
    const j = { name: job.name, data: job.data } as OccupancyJob;
    switch (j.name) {
      case 'check':
        return d.occupancy.reconcile(j.data.channels);
      case 'sweep':
        return d.occupancy.sweep();
      default:
        throw new UnrecoverableError(`unknown job ${job.name}`);
    }
  };
  return async (job) => {
    const changes = await run(job);
    if (changes > 0) d.log.debug({ changes, job: job.name }, 'presence changed');
    return changes;
  };
}
