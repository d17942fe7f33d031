import type { Logger } from '@wms/kit/logger';
import { type Processor, UnrecoverableError } from '@wms/kit/queues';
import type { DeliveryService } from '../delivery.service.ts';
import type { EventsJob } from '../queues.ts';

/** `realtime-events`: sweep (and the previous release's drain) and expire; one at a time, so batches leave in order. */
export function eventsProcessor(d: {
  delivery: DeliveryService;
  log: Logger;
}): Processor<EventsJob['data'], number, string> {
  return async (job) => {
    switch (job.name as EventsJob['name']) {
      case 'drain':
      case 'sweep': {
        const triggered = await d.delivery.drain();
        if (triggered > 0) d.log.debug({ triggered, job: job.name }, 'events triggered');
        return triggered;
      }
      case 'expire': {
        const removed = await d.delivery.expire(new Date());
        if (removed > 0) d.log.info({ removed }, 'expired events removed');
        return removed;
      }
      default:
        throw new UnrecoverableError(`unknown job ${job.name}`);
    }
  };
}
