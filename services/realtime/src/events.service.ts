import { callerOf } from '@wms/kit/caller';
import type { CallContext } from '@wms/kit/context';
import { DomainError } from '@wms/kit/errors';
import type { Transact } from '@wms/kit/transactions';
import {
  catchUpQuery,
  conversationIdsOf,
  eventsToStore,
  type JsonObject,
  readableEvents,
  type SourceEvent,
  type StoredEvent,
} from './domain/events.ts';
import type { EventStore } from './store/event.store.ts';

/** Tells the drainer that events wait; a lost nudge only delays them (a periodic sweep drains too). */
export interface DeliveryNudge {
  nudge(): Promise<void>;
}

/** Messaging, which owns conversations and their members: which of them the caller may read. */
export interface ConversationAccess {
  /**
   * Those of the conversations (at most 1,000; a catch-up page names at most 100) that the call's actor may read:
   * public ones, and private and direct ones it is a member of.
   */
  readable(ctx: CallContext, conversationIds: string[]): Promise<ReadonlySet<string>>;
}

/** 410: the events after the cursor are partly gone; the client reloads instead of catching up. */
export const cursorExpired = () =>
  new DomainError('gone', 'cursor_expired', 'Events after this cursor are no longer kept; reload instead.');

/** Reads of one catch-up page at most, past events of conversations the caller may not read. */
const MAX_READS = 10;

export interface EventPage {
  items: StoredEvent[];
  nextCursor: string;
}

export class EventService {
  constructor(
    private readonly d: {
      transact: Transact;
      events: Pick<EventStore, 'insert' | 'after' | 'head' | 'removedThrough'>;
      conversations: ConversationAccess;
      delivery: DeliveryNudge;
    },
  ) {}

  /** Stores a relay's batch in its order, each source id once (a retried batch stores nothing twice), and nudges delivery. */
  async publish(
    source: string,
    events: Array<Omit<SourceEvent, 'payload'> & { payload: JsonObject | undefined }>,
  ): Promise<number> {
    const rows = eventsToStore(source, events);
    const accepted = await this.d.transact((tx) => this.d.events.insert(rows, tx));
    if (accepted > 0) await this.d.delivery.nudge();
    return accepted;
  }

  /**
   * The events after `after` the caller could have received, oldest first; without a cursor none, and the cursor a
   * client takes when it connects. A conversation's events are kept only while the caller may read it (private and
   * direct ones: their members), asked of messaging once per read. Reads go on past the events left out until the
   * page is full or the newest event is reached, up to MAX_READS reads: the page can then hold fewer than `limit`
   * items while `nextCursor` moves past what was left out, so a client continues until `nextCursor` comes back equal
   * to the cursor it sent.
   */
  async catchUp(ctx: CallContext, after: string | undefined, limit: number): Promise<EventPage> {
    const me = callerOf(ctx);
    const q = catchUpQuery(after, limit);
    if (q.after === undefined) return { items: [], nextCursor: await this.d.events.head() };
    // Ids commit in order, so every event up to the head read first is in the page's reads.
    const head = await this.d.events.head();
    const items: StoredEvent[] = [];
    let last = q.after;
    let full: boolean;
    let reads = 0;
    do {
      const read = await this.d.events.after({
        workspaceId: me.workspaceId,
        actorId: me.actorId,
        after: last,
        limit: q.limit,
      });
      items.push(...(await this.readable(ctx, read)));
      last = read.at(-1)?.id ?? last;
      full = read.length === q.limit;
    } while (full && items.length < q.limit && ++reads < MAX_READS);
    // Read after the events: the mark only grows, and rises in the transaction that removes, so a removal the reads
    // missed events to is seen here.
    if (BigInt(q.after) < BigInt(await this.d.events.removedThrough())) throw cursorExpired();
    if (items.length >= q.limit) {
      const page = items.slice(0, q.limit);
      return { items: page, nextCursor: page.at(-1)!.id };
    }
    // A last read that is not full holds everything of the caller's up to the head: the cursor moves on to it, so a
    // quiet workspace's cursor does not fall behind the retention of busy ones.
    return { items, nextCursor: !full && BigInt(head) > BigInt(last) ? head : last };
  }

  /** The events of conversations the caller may not read (any longer) are left out: they must not leak through catch-up. */
  private async readable(ctx: CallContext, events: StoredEvent[]): Promise<StoredEvent[]> {
    const conversationIds = conversationIdsOf(events);
    if (conversationIds.length === 0) return events;
    return readableEvents(events, await this.d.conversations.readable(ctx, conversationIds));
  }
}
