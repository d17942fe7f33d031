import { randomUUID } from 'node:crypto';
import type { PublishEventsRequest__Output } from '@wms/protos/gen/wms/realtime/v1/PublishEventsRequest';
import type pg from 'pg';
import { type Knex, knexClient } from './db.ts';
import { connectPeer } from './grpc-client.ts';
import type { Logger } from './logger.ts';
import { OUTBOX_TABLE, outboxNotifyChannel } from './outbox.ts';

export interface OutboxRelayOptions {
  /** The owner's pool (its search_path is the owner's schema). */
  db: Knex;
  /** The owner's schema, where its `outbox` table is. */
  schema: string;
  /** The data owner as realtime knows it (`messaging`, `workspace`): with a row's id, what makes a publish idempotent. */
  source: string;
  /** Hands a batch to realtime (`PublishEvents`); resolves once realtime stored it. */
  publish(request: PublishEventsRequest__Output): Promise<unknown>;
  log: Logger;
  /** The fallback poll, for a notification lost with the LISTEN connection. */
  pollMs?: number;
  /**
   * After publishing, the relay waits this long before it reads again, so that what commits meanwhile goes as one
   * batch: under load a publish (and realtime's work per publish) carries many events instead of one or two. The
   * first event after a quiet spell goes at once.
   */
  gatherMs?: number;
  /** At most this many rows per publish... */
  batchSize?: number;
  /** ...and at most this many payload bytes (a batch always holds one row), well under gRPC's message limit. */
  batchBytes?: number;
  /** First and longest wait after a failed publish (doubling in between). */
  backoffMs?: { min: number; max: number };
}

/** A running relay; `stop` is a shutdown step of the owner's worker role. */
export interface OutboxRelay {
  /** Finishes the batch in flight, then stops polling and listening. */
  stop(): Promise<void>;
}

/** What a drain finds when another relay holds the lock. */
const BUSY = -1;

interface OutboxRow {
  id: string;
  workspace_id: string;
  channel: string;
  event: string;
  payload: string;
  created_at: Date;
}

/**
 * Runs an owner's outbox relay in its worker role: drains the outbox on every NOTIFY (a dedicated connection
 * LISTENs) and every `pollMs`, publishes the committed rows in id order (so two changes of one thing go in the
 * order of the changes: appendToOutbox), and deletes what was published. A failed publish leaves the rows
 * (retried with backoff); a publish whose delete did not happen is repeated, which realtime ignores by (source,
 * source_id). Any number of worker replicas may run it: the one whose connection holds the owner's lead lock listens
 * and drains (`lead`); the others stand by, trying the lock every `pollMs`, neither listening nor draining unless rows
 * wait longer than a poll (`unattended`). Batches hold a lock of their own (`drain`), so whichever relay sends them,
 * one batch goes at a time.
 */
export function startOutboxRelay(options: OutboxRelayOptions): OutboxRelay {
  const relay = new Relay(options);
  relay.start();
  return relay;
}

/**
 * The relay of an owner's worker role to the realtime service at `realtimeUrl` (its `PublishEvents`); `stop` ends the
 * relay, then closes the client. It needs Postgres and realtime only, so a worker starts it before anything else.
 */
export function relayToRealtime(o: Omit<OutboxRelayOptions, 'publish'> & { realtimeUrl: string }): OutboxRelay {
  const { realtimeUrl, ...options } = o;
  const realtime = connectPeer('realtime', realtimeUrl);
  const relay = startOutboxRelay({
    ...options,
    publish: (request) => realtime.PublishEvents(request, { requestId: randomUUID() }),
  });
  return {
    async stop() {
      await relay.stop();
      realtime.close();
    },
  };
}

class Relay implements OutboxRelay {
  private readonly table: string;
  private readonly pollMs: number;
  private readonly gatherMs: number;
  private readonly batchSize: number;
  private readonly batchBytes: number;
  private readonly backoff: { min: number; max: number };
  private stopped = false;
  /** A notification arrived since the last drain began. */
  private notified = false;
  /** This relay's LISTEN connection holds the lead lock: it listens and drains. */
  private leading = false;
  /** Waits in progress, each ended early by stop. */
  private readonly sleepers = new Set<() => void>();
  /** The drain loop's wait, when a notification may end it. */
  private interruptible: (() => void) | undefined;
  /** Resolved by stop: ends the listener's wait for its connection to close. */
  private readonly stopping: Promise<void>;
  private stopListening!: () => void;
  private draining: Promise<void> = Promise.resolve();
  private listening: Promise<void> = Promise.resolve();

  constructor(private readonly o: OutboxRelayOptions) {
    this.table = `${o.schema}.${OUTBOX_TABLE}`;
    this.pollMs = o.pollMs ?? 1000;
    this.gatherMs = o.gatherMs ?? 20;
    this.batchSize = o.batchSize ?? 500;
    this.batchBytes = o.batchBytes ?? 4 * 1024 * 1024;
    this.backoff = o.backoffMs ?? { min: 250, max: 5000 };
    this.stopping = new Promise((resolve) => (this.stopListening = resolve));
  }

  start(): void {
    this.listening = this.listen();
    this.draining = this.drainLoop();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.stopListening();
    for (const wake of this.sleepers) wake();
    await this.draining;
    // The listener closes its connection; bounded by the connect timeout when a reconnect is in progress.
    await this.listening;
  }

  private notify(): void {
    this.notified = true;
    this.interruptible?.();
  }

  private sleep(ms: number, onNotification = false): Promise<void> {
    if (this.stopped || (onNotification && this.notified)) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.sleepers.delete(done);
        if (this.interruptible === done) this.interruptible = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.sleepers.add(done);
      if (onNotification) this.interruptible = done;
    });
  }

  private async drainLoop(): Promise<void> {
    let failures = 0;
    while (!this.stopped) {
      try {
        // A standby drains only what nobody else does; taking the lead notifies it.
        if (!this.leading) {
          this.notified = false;
          if (!(await this.unattended())) {
            await this.sleep(this.pollMs, true);
            continue;
          }
        }
        const published = await this.drain();
        if (failures > 0) this.o.log.info({ source: this.o.source, failures }, 'outbox relay publishing again');
        failures = 0;
        if (published === BUSY) {
          // Another relay sends a batch (one that lost the lead with its connection, or a standby draining what
          // waited): wait for the poll rather than the next notification, to find the lock taken again.
          await this.sleep(this.pollMs);
          continue;
        }
        if (published > 0) await this.sleep(this.gatherMs);
        await this.sleep(this.pollMs, true);
      } catch (err) {
        failures++;
        const waitMs = Math.min(this.backoff.min * 2 ** (failures - 1), this.backoff.max);
        this.o.log.warn(
          { err, source: this.o.source, failures, retry_in_ms: waitMs },
          'outbox relay could not publish; the events wait in the outbox',
        );
        // Not cut short by notifications: with realtime down, a busy owner would otherwise retry on every commit.
        await this.sleep(waitMs);
      }
    }
  }

  /**
   * Publishes and deletes batch after batch until a read finds fewer rows than a batch holds; returns how many rows went,
   * or BUSY when another relay holds the lock. Each batch is read, published and deleted in one transaction holding the
   * owner's relay lock, so with several worker replicas one relay drains at a time: every row goes once, in id order,
   * whichever replica sends it; one that dies mid-batch releases the lock with its connection and leaves the rows to
   * the next (at least once).
   */
  private async drain(): Promise<number> {
    let published = 0;
    while (!this.stopped) {
      this.notified = false;
      const { read, sent } = await this.o.db.transaction(async (tx) => {
        const { rows: lock }: { rows: { locked: boolean }[] } = await tx.raw(
          'SELECT pg_try_advisory_xact_lock(hashtext(?)) AS locked',
          [`wms-outbox-relay:${this.table}`],
        );
        if (!lock[0]!.locked) return { read: BUSY, sent: 0 };
        const { rows }: { rows: OutboxRow[] } = await tx.raw(
          'SELECT id, workspace_id, channel, event, payload::text AS payload, created_at FROM ?? ORDER BY id LIMIT ?',
          [this.table, this.batchSize],
        );
        if (rows.length === 0) return { read: 0, sent: 0 };
        const batch = this.withinBytes(rows);
        await this.o.publish({
          source: this.o.source,
          events: batch.map((r) => ({
            source_id: String(r.id),
            workspace_id: r.workspace_id,
            channel: r.channel,
            name: r.event,
            payload: r.payload,
            created_at: r.created_at.toISOString(),
          })),
        });
        await tx.raw('DELETE FROM ?? WHERE id = ANY(?::bigint[])', [this.table, batch.map((r) => r.id)]);
        return { read: rows.length, sent: batch.length };
      });
      if (read === BUSY) return published > 0 ? published : BUSY;
      if (read === 0) return published;
      published += sent;
      // A short read was everything committed; what commits later notifies (or the poll finds it).
      if (read < this.batchSize && sent === read) return published;
    }
    return published;
  }

  /**
   * Whether the oldest row has waited longer than a poll: the relay in the lead is failing, or gone while Postgres
   * still holds its session (a host that vanished: only TCP keepalives end such a session). While one drains, rows
   * wait a gathering pause and a publish.
   */
  private async unattended(): Promise<boolean> {
    const { rows }: { rows: { waiting: boolean }[] } = await this.o.db.raw(
      "SELECT created_at < now() - ? * interval '1 millisecond' AS waiting FROM ?? ORDER BY id LIMIT 1",
      [this.pollMs, this.table],
    );
    return rows[0]?.waiting === true;
  }

  /** The first rows whose payloads fit in `batchBytes`, at least one. */
  private withinBytes(rows: OutboxRow[]): OutboxRow[] {
    let bytes = 0;
    const fits = rows.findIndex((r) => (bytes += Buffer.byteLength(r.payload)) > this.batchBytes);
    return fits === -1 ? rows : rows.slice(0, Math.max(fits, 1));
  }

  /**
   * Keeps a connection of its own open (reconnecting with backoff), on which the relay takes the lead (`lead`); each
   * notification, and taking the lead, starts a drain.
   */
  private async listen(): Promise<void> {
    const client = knexClient(this.o.db);
    let failures = 0;
    let lost = false;
    while (!this.stopped) {
      let connection: pg.Client | undefined;
      try {
        connection = (await client.acquireRawConnection()) as pg.Client;
        const closed = new Promise<unknown>((resolve) => {
          connection!.once('error', resolve);
          connection!.once('end', resolve);
        });
        connection.on('notification', () => this.notify());
        if (this.stopped) break;
        if (lost) this.o.log.info({ source: this.o.source }, 'outbox relay has its connection again');
        lost = false;
        failures = 0;
        const err = await this.lead(connection, closed);
        if (this.stopped) break;
        lost = true;
        this.o.log.warn({ err, source: this.o.source }, 'outbox relay lost its connection; polling until it is back');
      } catch (err) {
        failures++;
        if (!lost)
          this.o.log.warn({ err, source: this.o.source }, 'outbox relay lost its connection; polling until it is back');
        lost = true;
      } finally {
        this.leading = false;
        if (connection) await client.destroyRawConnection(connection).catch(() => undefined);
      }
      await this.sleep(Math.min(this.backoff.min * 2 ** failures, this.backoff.max));
    }
  }

  /**
   * Stands by until `connection` holds the owner's lead lock (a session lock: it goes with the connection, so a relay
   * that dies or loses its connection hands the lead on within a poll), then LISTENs and leads until the connection
   * closes or the relay stops; returns the connection's error, if any. Only the relay in the lead listens: Postgres
   * wakes every listening backend, and each its relay, at every commit that notifies.
   */
  private async lead(connection: pg.Client, closed: Promise<unknown>): Promise<unknown> {
    const key = `wms-outbox-relay-lead:${this.table}`;
    for (;;) {
      const { rows } = await connection.query<{ leading: boolean }>(
        'SELECT pg_try_advisory_lock(hashtext($1)) AS leading',
        [key],
      );
      if (rows[0]!.leading) break;
      await this.sleep(this.pollMs);
      if (this.stopped) return undefined;
    }
    await connection.query(`LISTEN ${connection.escapeIdentifier(outboxNotifyChannel(this.o.schema))}`);
    this.leading = true;
    // Whatever committed while nobody listened.
    this.notify();
    // A stop ends the wait whenever it comes, also while the LISTEN above was on its way.
    return Promise.race([closed, this.stopping]);
  }
}
