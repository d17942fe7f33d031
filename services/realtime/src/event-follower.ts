import { EVENTS_MESSAGE_PREFIX } from '@wms/kit/outbox';
import type { Logger } from '@wms/kit/logger';
import type { Transact } from '@wms/kit/transactions';
import type { WalCommit, WalMessage, WalStream, WalStreamHandlers } from './adapters/wal-stream.ts';
import { formatLsn } from './adapters/wal-stream.ts';
import { eventsToStore, type JsonObject, type NewEvent, parsePayload } from './domain/events.ts';
import type { EventStore } from './store/event.store.ts';

export interface EventFollowerOptions {
  /** Starts streaming the events slot (adapters/wal-stream.ts). */
  connect(handlers: WalStreamHandlers): Promise<WalStream>;
  transact: Transact;
  events: Pick<EventStore, 'insert'>;
  /** Called after each batch is stored: delivery triggers what waits. */
  stored(): void;
  log: Logger;
  /** How often a worker that does not hold the slot tries it again (and how long after a failure it retries). */
  retryMs?: number;
  /**
   * After storing a batch, how long to wait before the next (so that under load a store and a trigger carry many
   * events): the first event after a quiet spell is stored at once.
   */
  gatherMs?: number;
  /** Past this many bytes of messages received and not yet stored, the stream pauses until they are stored. */
  maxPendingBytes?: number;
  /** The slot is lost (dropped, invalidated, or gone with a failover to a replica): makes it again, before the next try. */
  recreateSlot?(): Promise<unknown>;
}

export interface EventFollower {
  /** Ends the stream once the batch in flight is stored. */
  stop(): Promise<void>;
}

/**
 * Follows the events the data owners commit (kit outbox.ts) through the replication slot, in commit order, and stores
 * them: each batch of transactions received while the previous batch was being stored goes in one transaction, then
 * its position is acknowledged, so what was not stored comes again (and what comes again is stored once, by its WAL
 * position). A slot takes one reader: the worker replica that holds it leads; the others try every `retryMs`, and one
 * of them takes over within that once the leader's connection is gone.
 */
export function followEvents(o: EventFollowerOptions): EventFollower {
  const follower = new Follower(o);
  const running = follower.run().catch((err: unknown) => o.log.error({ err }, 'the event follower ended'));
  return {
    async stop() {
      await follower.stop();
      await running;
    },
  };
}

/**
 * The slot is gone (42704 of the slot, not of the publication, which a new slot would not bring back) or invalidated
 * (55000: it kept more WAL than `max_slot_wal_keep_size`, and Postgres will never stream it again).
 */
export const slotLost = (code: string | undefined, message: string): boolean =>
  (code === '42704' && /replication slot/.test(message)) ||
  (code === '55000' && /can no longer get changes from replication slot/.test(message));

class Follower {
  private stopped = false;
  private stream: WalStream | undefined;
  private batches: Batches | undefined;
  private readonly wake = new Set<() => void>();

  constructor(private readonly o: EventFollowerOptions) {}

  /** Receives nothing more, stores and acknowledges what was received, then closes the stream. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const w of this.wake) w();
    this.batches?.halt();
    await this.batches?.settled();
    await this.stream?.close();
  }

  async run(): Promise<void> {
    let lastFailure = '';
    while (!this.stopped) {
      const batches = (this.batches = new Batches(this.o, () => this.stream));
      try {
        this.stream = await this.o.connect(batches.handlers);
        if (this.stopped) break;
        await Promise.race([this.stream.started, batches.failed]);
        if (this.stopped) break;
        this.o.log.info('following events through the replication slot');
        lastFailure = '';
        await Promise.race([this.stream.done, batches.failed]);
      } catch (err) {
        if (!this.stopped) lastFailure = await this.recover(err, lastFailure);
      } finally {
        await this.stream?.close();
        await batches.settled();
        this.stream = undefined;
      }
      if (!this.stopped) await this.sleep(this.o.retryMs ?? 1000);
    }
  }

  /** Logs a failure (once while it repeats) and repairs what it can; returns what failed. */
  private async recover(err: unknown, lastFailure: string): Promise<string> {
    const { code, message } = (err ?? {}) as { code?: string; message?: string };
    // 55006: another worker holds the slot, and this one stands by.
    if (code === '55006') {
      this.o.log.debug('another worker follows events');
      return lastFailure;
    }
    const failure = `${code ?? ''} ${message ?? String(err)}`;
    if (failure !== lastFailure) this.o.log.warn({ err }, 'following events stopped; trying again every second');
    if (slotLost(code, message ?? '')) {
      this.o.log.error('the events slot is lost: it is made again, and events committed meanwhile are not delivered');
      await this.o.recreateSlot?.().catch((e: unknown) => this.o.log.warn({ err: e }, 'could not make the slot'));
    }
    return failure;
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wake.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wake.add(done);
    });
  }
}

/** One connection's batches: what was received and waits, the batch being stored, and the position acknowledged. */
class Batches {
  private waiting: WalCommit[] = [];
  private waitingBytes = 0;
  private storing: Promise<void> | undefined;
  /** A batch could not be stored: nothing more is stored or acknowledged on this connection. */
  private broken = false;
  private fail!: (err: unknown) => void;
  /** Rejects when a batch cannot be stored: the connection is dropped and what was not acknowledged comes again. */
  readonly failed = new Promise<never>((_, reject) => (this.fail = reject));
  readonly handlers: WalStreamHandlers = {
    commit: (c) => this.received(c),
    keepalive: (walEnd) => this.keepalive(walEnd),
  };

  constructor(
    private readonly o: EventFollowerOptions,
    private readonly stream: () => WalStream | undefined,
  ) {
    this.failed.catch(() => {});
  }

  private halted = false;

  /** Receives no more: the stream stays paused. */
  halt(): void {
    this.halted = true;
    this.stream()?.pause();
  }

  async settled(): Promise<void> {
    while (this.storing) await this.storing;
  }

  private received(c: WalCommit): void {
    this.waiting.push(c);
    for (const m of c.messages) this.waitingBytes += m.content.length;
    if (this.waitingBytes > (this.o.maxPendingBytes ?? 8 * 1024 * 1024)) this.stream()?.pause();
    this.store();
  }

  /**
   * Stores what waits unless a batch is being stored; then again for what arrived meanwhile. (A batch of no events
   * is done before its promise settles, while more may arrive in the same chunk of the stream: the check comes after.)
   */
  private store(): void {
    if (this.storing || this.broken || this.waiting.length === 0) return;
    this.storing = this.storeAll().finally(() => {
      this.storing = undefined;
      this.store();
    });
  }

  /**
   * With nothing received unstored, the position Postgres reports is safe to acknowledge (the slot keeps no WAL it need
   * not); otherwise the answer repeats the last position acknowledged.
   */
  private keepalive(walEnd: bigint | undefined): void {
    const idle = !this.storing && !this.broken && this.waiting.length === 0;
    this.stream()?.acknowledge(idle ? walEnd : undefined);
  }

  private async storeAll(): Promise<void> {
    try {
      while (this.waiting.length > 0) {
        const batch = this.waiting;
        this.waiting = [];
        this.waitingBytes = 0;
        if (!this.halted) this.stream()?.resume();
        const events = batch.flatMap((c) => c.messages.flatMap((m) => this.eventsOf(m)));
        if (events.length === 0) {
          this.stream()?.acknowledge(batch.at(-1)!.endLsn);
          continue;
        }
        await this.o.transact((tx) => this.o.events.insert(events, tx));
        this.stream()?.acknowledge(batch.at(-1)!.endLsn);
        this.o.stored();
        // What commits meanwhile goes as one batch (one store, fuller triggers); after a quiet spell, at once.
        if (!this.halted) await new Promise((resolve) => setTimeout(resolve, this.o.gatherMs ?? 20));
      }
    } catch (err) {
      this.broken = true;
      this.fail(err);
    }
  }

  /**
   * A message's events, each identified by the message's WAL position and its place in it. A malformed one would be
   * refused every time it came again: it is logged and passed over (each event on its own),
   * so it cannot stop every later event.
   */
  private eventsOf(m: WalMessage): NewEvent[] {
    if (m.prefix !== EVENTS_MESSAGE_PREFIX) return [];
    const lsn = formatLsn(m.lsn);
    const body = parsePayload(m.content.toString('utf8'));
    if (typeof body?.source !== 'string' || !Array.isArray(body.events)) {
      this.o.log.error({ lsn }, 'a logical message of events is not {source, events}; it is passed over');
      return [];
    }
    const events = (body.events as unknown[]).map((value, i) => {
      const e = value !== null && typeof value === 'object' ? (value as JsonObject) : {};
      return {
        sourceId: `${lsn}:${i}`,
        workspaceId: String(e.workspace_id),
        channel: String(e.channel),
        name: String(e.event),
        payload: e.payload !== null && typeof e.payload === 'object' ? (e.payload as JsonObject) : undefined,
      };
    });
    // Each event checked on its own: a malformed one is passed over, not its neighbours.
    const stored: NewEvent[] = [];
    for (const e of events) {
      try {
        stored.push(...eventsToStore(body.source, [e]));
      } catch (err) {
        this.o.log.error(
          { err, lsn, sourceId: e.sourceId },
          'an event of a logical message is malformed; it is passed over',
        );
      }
    }
    return stored;
  }
}
