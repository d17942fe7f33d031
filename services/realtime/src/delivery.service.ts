import type { Transact } from '@wms/kit/transactions';
import { type JsonObject, RETENTION_MS, TRIGGER_BATCH } from './domain/events.ts';
import type { EventStore } from './store/event.store.ts';

/** The provider's trigger API; fails on any error the provider reports, whatever its HTTP status. */
export interface EventTrigger {
  trigger(events: Array<{ channel: string; name: string; data: JsonObject }>): Promise<void>;
}

const EXPIRE_BATCH = 1000;

/** Hands stored events to the provider in id order, and removes them once they have been kept long enough. */
export class DeliveryService {
  constructor(private readonly d: { transact: Transact; events: EventStore; provider: EventTrigger }) {}

  /**
   * Triggers every waiting event, oldest first, a batch at a time, each batch marked in the transaction that holds
   * delivery: drainers take turns, so no event overtakes an older one. A provider failure leaves the batch waiting.
   */
  async drain(): Promise<number> {
    let triggered = 0;
    for (;;) {
      const count = await this.d.transact(async (tx) => {
        await this.d.events.lockDelivery(tx);
        const batch = await this.d.events.untriggered(TRIGGER_BATCH, tx);
        if (batch.length === 0) return 0;
        await this.d.provider.trigger(batch.map((e) => ({ channel: e.channel, name: e.name, data: e.data })));
        await this.d.events.markTriggered(batch.map((e) => e.id), tx);
        return batch.length;
      });
      if (count === 0) return triggered;
      triggered += count;
    }
  }

  /** Removes events triggered more than the retention period before `now`; returns how many. */
  async expire(now: Date): Promise<number> {
    const cutoff = new Date(now.getTime() - RETENTION_MS);
    let removed = 0;
    for (;;) {
      const n = await this.d.events.expire(cutoff, EXPIRE_BATCH);
      removed += n;
      if (n < EXPIRE_BATCH) return removed;
    }
  }
}
