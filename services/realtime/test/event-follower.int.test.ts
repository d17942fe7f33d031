import { randomUUID } from 'node:crypto';
import { workspaceChannel } from '@wms/kit/channels';
import { createDb, type Knex, transactor, type Tx } from '@wms/kit/db';
import { appendToOutbox } from '@wms/kit/outbox';
import { waitFor } from '@wms/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWalStream } from '../src/adapters/wal-stream.ts';
import { type EventFollower, type EventFollowerOptions, followEvents } from '../src/event-follower.ts';
import { EventStore } from '../src/store/event.store.ts';
import { ensureEventSlot, EVENTS_PUBLICATION, eventSlotName, replaceEventSlot } from '../src/store/event-slot.ts';
import { log, type Realtime, startRealtime } from './harness.ts';

// The worker's follower against the machine's Postgres: a data owner (here a schema `messaging` of the test's
// database) writes events into its transactions' WAL, and followers read them through realtime's slot.

let rt: Realtime;
let writer: Knex;
let slot: string;

beforeAll(async () => {
  // No provider: these followers store, and nothing here triggers.
  const provider = {
    appId: 'app',
    key: 'key',
    secret: 'secret',
    host: '127.0.0.1',
    port: 1,
    useTls: false,
    cluster: 'mt1',
  };
  rt = await startRealtime({ provider });
  await rt.db.raw('CREATE SCHEMA IF NOT EXISTS messaging');
  writer = createDb({ url: rt.config.DATABASE_URL, schema: 'messaging', log });
  await ensureEventSlot(rt.db, log);
  slot = await eventSlotName(rt.db);
});

afterAll(async () => {
  await writer?.destroy();
  await rt?.close();
});

/**
 * A follower that takes the slot decodes from the slot's restart point, which Postgres moves on only every 15 s or
 * so (its running-transactions record): on a machine busy with other tests' WAL that can take seconds.
 */
const WAIT_MS = 25_000;

const followers: EventFollower[] = [];
function follow(o: Partial<EventFollowerOptions> = {}): { stored: () => number; follower: EventFollower } {
  let stored = 0;
  const follower = followEvents({
    connect: (handlers) =>
      startWalStream({ url: rt.config.DATABASE_URL, slot, publication: EVENTS_PUBLICATION }, handlers),
    transact: transactor(rt.db),
    events: new EventStore(rt.db),
    stored: () => stored++,
    log,
    retryMs: 100,
    ...o,
  });
  followers.push(follower);
  return { stored: () => stored, follower };
}

const workspaceId = () => randomUUID();
const write = (ws: string, names: string[], tx: Tx) =>
  appendToOutbox(
    writer,
    names.map((name) => ({
      workspaceId: ws,
      channel: workspaceChannel(ws),
      event: name,
      payload: { event_id: randomUUID(), name },
    })),
    tx,
  );
const commit = (ws: string, ...names: string[]) => transactor(writer)((tx) => write(ws, names, tx));
const storedOf = async (ws: string) =>
  rt
    .db('events')
    .where({ workspace_id: ws })
    .orderBy('id')
    .select<Array<{ name: string; source: string; source_id: string }>>('name', 'source', 'source_id');
const names = async (ws: string) => (await storedOf(ws)).map((e) => e.name);
/**
 * Followers streaming the slot: its holder is a walsender. (While a slot is being made, the backend making it holds it,
 * and a commit then, before the slot's consistent point, is never decoded.)
 */
const activeReaders = async () =>
  Number(
    (
      await rt.db.raw(
        `SELECT count(*) AS n FROM pg_replication_slots s JOIN pg_stat_replication r ON r.pid = s.active_pid
         WHERE s.slot_name = ?`,
        [slot],
      )
    ).rows[0].n,
  );

describe('event follower', () => {
  afterAll(async () => {
    await Promise.all(followers.map((f) => f.stop()));
  });

  it('stores what commits, in commit order, each event once, and nothing of a rollback', async () => {
    const { follower } = follow();
    const ws = workspaceId();
    let commitFirst!: () => void;
    let written!: () => void;
    const firstWritten = new Promise<void>((resolve) => (written = resolve));
    const first = transactor(writer)(async (tx) => {
      await write(ws, ['first'], tx);
      written();
      await new Promise<void>((resolve) => (commitFirst = resolve));
    });
    await firstWritten;
    await commit(ws, 'second', 'third');
    await expect(
      transactor(writer)(async (tx) => {
        await write(ws, ['rolled back'], tx);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    await waitFor('the committed events', async () => (await names(ws)).length === 2, WAIT_MS, 20);
    commitFirst();
    await first;
    await commit(ws, 'canary');
    await waitFor('the canary', async () => (await names(ws)).includes('canary'), WAIT_MS, 20);
    const stored = await storedOf(ws);
    expect(stored.map((e) => e.name)).toEqual(['second', 'third', 'first', 'canary']);
    expect(stored.every((e) => e.source === 'messaging')).toBe(true);
    // Each event is named by its message's WAL position and its place in the message.
    expect(stored[1]!.source_id).toBe(stored[0]!.source_id.replace(/:0$/, ':1'));
    expect(stored.map((e) => e.source_id)).toEqual(
      stored.map(() => expect.stringMatching(/^[0-9A-F]+\/[0-9A-F]+:\d$/)),
    );
    await follower.stop();
  });

  it('moves the slot past what it stored, so the WAL behind it can go', async () => {
    const { follower } = follow();
    const ws = workspaceId();
    await commit(ws, 'one');
    await waitFor('the event', async () => (await names(ws)).length === 1, WAIT_MS, 20);
    const { rows } = await writer.raw('SELECT pg_current_wal_lsn() AS now');
    await commit(ws, 'two');
    await waitFor('the event', async () => (await names(ws)).length === 2, WAIT_MS, 20);
    await waitFor(
      'the acknowledgement',
      async () =>
        (
          await rt.db.raw(
            'SELECT confirmed_flush_lsn > ?::pg_lsn AS past FROM pg_replication_slots WHERE slot_name = ?',
            [rows[0].now, slot],
          )
        ).rows[0].past === true,
      10_000,
      20,
    );
    await follower.stop();
  });

  it('lets one follower read while another stands by, which takes over once the first stops, losing nothing', async () => {
    const ws = workspaceId();
    const a = follow();
    await commit(ws, 'a1');
    await waitFor('the first follower', async () => (await names(ws)).length === 1, WAIT_MS, 20);
    const b = follow();
    // b tries the slot every 100 ms and is refused while a holds it.
    await commit(ws, 'a2');
    await waitFor('the event', async () => (await names(ws)).length === 2, WAIT_MS, 20);
    expect(await activeReaders()).toBe(1);
    expect(b.stored()).toBe(0);
    await a.follower.stop();
    await commit(ws, 'b1', 'b2');
    await waitFor('the other follower', async () => (await names(ws)).length === 4, WAIT_MS, 20);
    expect(await names(ws)).toEqual(['a1', 'a2', 'b1', 'b2']);
    expect(b.stored()).toBeGreaterThan(0);
    await b.follower.stop();
  });

  it('reads again what it failed to store, and stores it once', async () => {
    const ws = workspaceId();
    let failures = 1;
    const store = new EventStore(rt.db);
    const { follower } = follow({
      events: {
        insert: (events, tx) =>
          failures-- > 0 ? Promise.reject(new Error('storage is down')) : store.insert(events, tx),
      },
    });
    await commit(ws, 'x1');
    await commit(ws, 'x2');
    await waitFor('both events', async () => (await names(ws)).length === 2, WAIT_MS, 20);
    await commit(ws, 'canary');
    await waitFor('the canary', async () => (await names(ws)).includes('canary'), WAIT_MS, 20);
    expect(await names(ws)).toEqual(['x1', 'x2', 'canary']);
    await follower.stop();
  });

  it('passes over a malformed message, and follows the events after it', async () => {
    const ws = workspaceId();
    const { follower } = follow();
    await writer.raw(`SELECT pg_logical_emit_message(true, 'wms.events', 'not json')`);
    await writer.raw(`SELECT pg_logical_emit_message(true, 'wms.events', '{"source":"messaging","events":[{}]}')`);
    await writer.raw(`SELECT pg_logical_emit_message(true, 'another.prefix', '{}')`);
    await commit(ws, 'after');
    await waitFor('the event after', async () => (await names(ws)).length === 1, WAIT_MS, 20);
    await follower.stop();
  });

  it('stores a transaction of more events than one INSERT or a PublishEvents call takes, whole and in order', async () => {
    const ws = workspaceId();
    const many = Array.from({ length: 12_000 }, (_, i) => `m${i}`);
    const { follower } = follow();
    await commit(ws, ...many);
    await waitFor('every event', async () => (await names(ws)).length === 12_000, WAIT_MS, 20);
    expect(await names(ws)).toEqual(many);
    await follower.stop();
  });

  it('makes the slot again when it is gone, and follows what commits after', async () => {
    const ws = workspaceId();
    const { follower } = follow({ recreateSlot: () => replaceEventSlot(rt.db, log) });
    await commit(ws, 'before');
    await waitFor('the event', async () => (await names(ws)).length === 1, WAIT_MS, 20);
    // Its reader ended and the slot dropped before the follower connects again.
    // A transaction elsewhere in the cluster runs meanwhile: making the slot waits for it to end.
    const running = writer.transaction(async (t) => {
      await t.raw('SELECT txid_current()');
      await t.raw('SELECT pg_sleep(2)');
    });
    await waitFor(
      'the slot to be dropped',
      async () => {
        const { rows } = await rt.db.raw(
          `SELECT pg_terminate_backend(active_pid) AS ended FROM pg_replication_slots WHERE slot_name = ? AND active`,
          [slot],
        );
        if (rows.length > 0) return false;
        // It may have been taken again meanwhile: then another round.
        return rt.db
          .raw('SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE slot_name = ?', [slot])
          .then(
            () => true,
            () => false,
          );
      },
      WAIT_MS,
      5,
    );
    await waitFor('the slot again, followed', async () => (await activeReaders()) === 1, WAIT_MS, 20);
    await commit(ws, 'after');
    await waitFor('the event after', async () => (await names(ws)).length === 2, WAIT_MS, 20);
    expect(await names(ws)).toEqual(['before', 'after']);
    await running;
    await follower.stop();
  });

  it('pauses the stream while what it received waits, and stores a backlog whole and in order', async () => {
    const ws = workspaceId();
    const expected = Array.from({ length: 60 }, (_, i) => `e${i}`);
    for (const name of expected) await commit(ws, name);
    const { follower } = follow({ maxPendingBytes: 1000 });
    await waitFor('the backlog', async () => (await names(ws)).length === 60, WAIT_MS, 20);
    expect(await names(ws)).toEqual(expected);
    await follower.stop();
  });
});
