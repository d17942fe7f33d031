import { callerOf } from '@wms/kit/caller';
import type { CallContext } from '@wms/kit/context';
import { DomainError } from '@wms/kit/errors';
import type { Transact } from '@wms/kit/transactions';
import { catchUpQuery, eventsToStore, type JsonObject, type SourceEvent, type StoredEvent } from './domain/events.ts';
import type { EventStore } from './store/event.store.ts';

/** Tells the drainer that events wait; a lost nudge only delays them (a periodic sweep drains too). */
export interface DeliveryNudge {
  nudge(): Promise<void>;
}

/** 410: the events after the cursor are partly gone; the client reloads instead of catching up. */
export const cursorExpired = () => new DomainError('gone', 'cursor_expired', 'Events after this cursor are no longer kept; reload instead.');

export interface EventPage {
  items: StoredEvent[];
  nextCursor: string;
}

export class EventService {
  constructor(private readonly d: { transact: Transact; events: EventStore; delivery: DeliveryNudge }) {}

  /** Stores a relay's batch in its order, each source id once (a retried batch stores nothing twice), and nudges delivery. */
  async publish(source: string, events: Array<Omit<SourceEvent, 'payload'> & { payload: JsonObject | undefined }>): Promise<number> {
    const rows = eventsToStore(source, events);
    const accepted = await this.d.transact((tx) => this.d.events.insert(source, rows, tx));
    if (accepted > 0) await this.d.delivery.nudge();
    return accepted;
  }

  /**
   * The events after `after` the caller could have received, oldest first; without a cursor none, and the cursor a
   * client takes when it connects.
   */
  async catchUp(ctx: CallContext, after: string | undefined, limit: number): Promise<EventPage> {
    const me = callerOf(ctx);
    const q = catchUpQuery(after, limit);
    if (q.after === undefined) return { items: [], nextCursor: await this.d.events.head() };
    // Ids commit in order, so every event up to the head read first is in the page's read.
    const head = await this.d.events.head();
    const items = await this.d.events.after({ workspaceId: me.workspaceId, actorId: me.actorId, after: q.after, limit: q.limit });
    // Read after the events: the mark only grows, and rises in the transaction that removes, so a removal the read
    // missed events to is seen here.
    if (BigInt(q.after) < BigInt(await this.d.events.removedThrough())) throw cursorExpired();
    const last = items.at(-1)?.id ?? q.after;
    // A page that is not full holds everything of the caller's up to the head: the cursor moves on to it, so a quiet
    // workspace's cursor does not fall behind the retention of busy ones.
    return { items, nextCursor: items.length < q.limit && BigInt(head) > BigInt(last) ? head : last };
  }
}
