import type { Logger } from '@wms/kit/logger';
import type { Transact } from '@wms/kit/transactions';
import { removedActorsOf, RETENTION_MS, type StoredEvent, TRIGGER_BATCH } from './domain/events.ts';
import type { JsonObject } from './domain/events.ts';
import type { EventStore } from './store/event.store.ts';

/** The provider's trigger API; fails on any error the provider reports, whatever its HTTP status. */
export interface EventTrigger {
  trigger(events: Array<{ channel: string; name: string; data: JsonObject }>): Promise<void>;
  /** Whether a failure of `trigger` is the provider refusing these events (it will refuse them again), not an outage. */
  isRefusal(err: unknown): boolean;
  /** Closes every connection signed in as the user (here: the actor); the provider keeps no other handle on a socket. */
  disconnectUser(userId: string): Promise<void>;
}

const EXPIRE_BATCH = 1000;

/** Hands stored events to the provider in id order, and removes them once they have been kept long enough. */
export class DeliveryService {
  constructor(private readonly d: { transact: Transact; events: EventStore; provider: EventTrigger; log: Logger }) {}

  /**
   * Triggers every waiting event, oldest first, a batch at a time, each batch marked in the transaction that holds
   * delivery: drainers take turns, so no event overtakes an older one. A provider failure leaves the batch waiting.
   * A member's removal, from the workspace or from a private or direct conversation, also closes the connections
   * signed in as its actor once the batch that tells it is out: their subscriptions would outlive the access.
   */
  async drain(): Promise<number> {
    let triggered = 0;
    for (;;) {
      const count = await this.d.transact(async (tx) => {
        await this.d.events.lockDelivery(tx);
        const batch = await this.d.events.untriggered(TRIGGER_BATCH, tx);
        if (batch.length === 0) return 0;
        await this.trigger(batch);
        for (const actorId of removedActorsOf(batch)) await this.disconnect(actorId);
        await this.d.events.markTriggered(batch.at(-1)!.id, tx);
        return batch.length;
      });
      triggered += count;
      // A short batch was everything stored; what is stored later nudges again (kept while this drain runs).
      if (count < TRIGGER_BATCH) return triggered;
    }
  }

  private draining: Promise<void> | undefined;
  private drainAgain = false;

  /**
   * Drains in this process, soon: one drain at a time, and one more after it when asked during it (an event stored
   * at its very end is not left for the sweep). A failure is only logged: the sweep drains too. `nudge` resolves at
   * once; `drained` waits for the drains asked for so far.
   */
  async nudge(): Promise<void> {
    if (this.draining) {
      this.drainAgain = true;
      return;
    }
    this.draining = this.drainWhileAsked().finally(() => {
      this.draining = undefined;
      // Asked between the loop's last check and now.
      if (this.drainAgain) void this.nudge();
    });
  }

  async drained(): Promise<void> {
    while (this.draining) await this.draining;
  }

  private async drainWhileAsked(): Promise<void> {
    do {
      this.drainAgain = false;
      try {
        await this.drain();
      } catch (err) {
        this.d.log.warn({ err }, 'could not trigger the stored events; the sweep will');
      }
    } while (this.drainAgain);
  }

  /**
   * A batch the provider refuses goes again an event at a time, and an event it refuses alone is left out (logged;
   * catch-up still lists it), so one event it will never take cannot hold back every later one.
   */
  private async trigger(batch: StoredEvent[]): Promise<void> {
    try {
      await this.d.provider.trigger(batch.map((e) => ({ channel: e.channel, name: e.name, data: e.data })));
    } catch (err) {
      if (!this.d.provider.isRefusal(err)) throw err;
      if (batch.length > 1) {
        for (const e of batch) await this.trigger([e]);
        return;
      }
      const [e] = batch;
      this.d.log.error(
        { err, event: e!.id, channel: e!.channel, name: e!.name },
        'the realtime provider refuses this event; it is not delivered live',
      );
    }
  }

  /**
   * Best effort: a provider that cannot close a user's connections (or is down just then) must not hold the batch back
   * or send it twice; the removed member's next authorization is refused anyway.
   */
  private async disconnect(actorId: string): Promise<void> {
    try {
      await this.d.provider.disconnectUser(actorId);
    } catch (err) {
      this.d.log.warn({ err, actor_id: actorId }, "could not close a removed member's connections");
    }
  }

  /** Removes the triggered events stored more than the retention period before `now`; returns how many. */
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
