import { EVENTS_MESSAGE_PREFIX } from '@wms/kit/outbox';
import type { Logger } from '@wms/kit/logger';
import type { Transact } from '@wms/kit/transactions';
import type { WalCommit, WalStream, WalStreamHandlers } from './adapters/wal-stream.ts';
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
  /** Past this many events received and not yet stored, the stream pauses until they are. */
  maxPending?: number;
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
  const running = follower.run();
  return {
    async stop() {
      await follower.stop();
      await running;
    },
  };
}

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
    let leading = false;
    while (!this.stopped) {
      const batches = (this.batches = new Batches(this.o, () => this.stream));
      try {
        this.stream = await this.o.connect(batches.handlers);
        if (this.stopped) break;
        await Promise.race([this.stream.started, batches.failed]);
        if (!leading) this.o.log.info('following events through the replication slot');
        leading = true;
        await Promise.race([this.stream.done, batches.failed]);
      } catch (err) {
        if (!this.stopped) this.logFailure(err, leading);
        leading = false;
      } finally {
        await this.stream?.close();
        await batches.settled();
        this.stream = undefined;
      }
      if (!this.stopped) await this.sleep(this.o.retryMs ?? 1000);
    }
  }

  private logFailure(err: unknown, leading: boolean): void {
    // 55006: another worker holds the slot, and this one stands by.
    if ((err as { code?: string }).code === '55006') this.o.log.debug('another worker follows events');
    else this.o.log.warn({ err, leading }, 'following events stopped; trying again');
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
  private waitingEvents = 0;
  private storing: Promise<void> | undefined;
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
    await this.storing;
  }

  private received(c: WalCommit): void {
    this.waiting.push(c);
    this.waitingEvents += c.messages.length;
    if (this.waitingEvents > (this.o.maxPending ?? 5000)) this.stream()?.pause();
    this.storing ??= this.storeAll().finally(() => (this.storing = undefined));
  }

  /** With nothing received unstored, the position Postgres reports is safe to acknowledge: the slot keeps no WAL it need not. */
  private keepalive(walEnd: bigint | undefined): void {
    this.stream()?.acknowledge(walEnd !== undefined && this.storing === undefined ? walEnd : 0n);
  }

  private async storeAll(): Promise<void> {
    try {
      while (this.waiting.length > 0) {
        const batch = this.waiting;
        this.waiting = [];
        this.waitingEvents = 0;
        if (!this.halted) this.stream()?.resume();
        const events = batch.flatMap((c) => c.messages.flatMap((m) => this.eventsOf(m)));
        if (events.length > 0) await this.o.transact((tx) => this.o.events.insert(events, tx));
        this.stream()?.acknowledge(batch.at(-1)!.endLsn);
        if (events.length > 0) this.o.stored();
      }
    } catch (err) {
      this.fail(err);
    }
  }

  /** A message's events, each identified by the message's WAL position and its place in it; none when malformed. */
  private eventsOf(m: WalCommit['messages'][number]): NewEvent[] {
    if (m.prefix !== EVENTS_MESSAGE_PREFIX) return [];
    const body = parsePayload(m.content.toString('utf8'));
    const lsn = formatLsn(m.lsn);
    try {
      const events = Array.isArray(body?.events) ? (body.events as JsonObject[]) : [];
      return eventsToStore(
        String(body?.source),
        events.map((e, i) => ({
          sourceId: `${lsn}:${i}`,
          workspaceId: String(e.workspace_id),
          channel: String(e.channel),
          name: String(e.event),
          payload: e.payload !== null && typeof e.payload === 'object' ? (e.payload as JsonObject) : undefined,
        })),
      );
    } catch (err) {
      // It would be refused every time it came again: logged and passed over, so it cannot stop every later event.
      this.o.log.error({ err, lsn }, 'a logical message of events is malformed; its events are not delivered');
      return [];
    }
  }
}
