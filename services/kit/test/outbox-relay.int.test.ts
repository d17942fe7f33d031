import { randomUUID } from 'node:crypto';
import type { PublishEventsRequest__Output } from '@wms/protos/gen/wms/realtime/v1/PublishEventsRequest';
import { createTestDatabase, waitFor } from '@wms/testkit';
import type pg from 'pg';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type Knex, type Migration, type Queryable, queryable, transactor, type Tx } from '../src/db.ts';
import { workspaceChannel } from '../src/channels.ts';
import { createOutboxTable, type OutboxEntry, OUTBOX_TABLE, outboxNotifyChannel } from '../src/outbox.ts';
import { type OutboxRelay, type OutboxRelayOptions, startOutboxRelay } from '../src/outbox-relay.ts';

// The relay against the machine's Postgres, with a plain function in realtime's place.

const schema = 'outbox_test';

/** The outbox every data owner keeps (messaging's and workspace's migrations make it with createOutboxTable). */
const outboxTable: Migration = { name: '0001_outbox', up: createOutboxTable };

const lines: Array<{ msg: string; failures?: number }> = [];
const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as { msg: string }) });

let database: { url: string; drop(): Promise<void> };
let db: Knex;
let relay: OutboxRelay | undefined;

beforeAll(async () => {
  database = await createTestDatabase(schema, [outboxTable]);
  db = createDb({ url: database.url, schema, log });
});

afterEach(async () => {
  await relay?.stop();
  relay = undefined;
  await db.raw('DELETE FROM outbox');
  lines.length = 0;
});

afterAll(async () => {
  await db?.destroy();
  await database?.drop();
});

const workspaceId = randomUUID();
const entry = (n: number): OutboxEntry => ({
  workspaceId,
  channel: workspaceChannel(workspaceId),
  event: 'test.event',
  payload: { event_id: randomUUID(), n },
});
/**
 * How the previous release wrote events (before they went through the WAL): outbox rows and a NOTIFY, in the change's
 * transaction. The relay hands such rows on while that release's processes still run (a rolling upgrade).
 */
async function appendAsPreviousRelease(knex: Knex, entries: OutboxEntry[], tx: Tx): Promise<void> {
  if (entries.length === 0) return;
  const rows = entries.map((e) => ({
    workspace_id: e.workspaceId,
    channel: e.channel,
    event: e.event,
    payload: e.payload,
  }));
  await queryable(knex, tx).raw(
    `WITH appended AS (
       INSERT INTO ?? (workspace_id, channel, event, payload)
       SELECT (e.value->>'workspace_id')::uuid, e.value->>'channel', e.value->>'event', e.value->'payload'
       FROM jsonb_array_elements(?::jsonb) WITH ORDINALITY AS e(value, n)
       ORDER BY e.n
       RETURNING 1
     )
     SELECT pg_notify(current_schema() || '_' || ?, '') FROM (SELECT count(*) FROM appended) AS a`,
    [OUTBOX_TABLE, JSON.stringify(rows), OUTBOX_TABLE],
  );
}
const append = (entries: OutboxEntry[]) => transactor(db)((tx) => appendAsPreviousRelease(db, entries, tx));
/** A transaction left open until the test commits or rolls it back. */
async function held(): Promise<{ tx: Tx; q: Queryable; commit(): Promise<void>; rollback(): Promise<void> }> {
  let opened!: (tx: Tx) => void;
  let decide!: (commit: boolean) => void;
  const tx = new Promise<Tx>((resolve) => (opened = resolve));
  const decided = new Promise<boolean>((resolve) => (decide = resolve));
  const ended = transactor(db)(async (t) => {
    opened(t);
    if (!(await decided)) throw new Error('rolled back');
  });
  ended.catch(() => undefined);
  const t = await tx;
  return {
    tx: t,
    q: queryable(db, t),
    commit: async () => {
      decide(true);
      await ended;
    },
    rollback: async () => {
      decide(false);
      await ended.catch(() => undefined);
    },
  };
}
const remaining = async () => Number((await db('outbox').count({ n: '*' }))[0]!.n);

/** A relay whose publish records each batch; `fail` decides, per call, whether that call throws instead. */
function start(options: Partial<OutboxRelayOptions> & { fail?: (call: number) => boolean } = {}) {
  const batches: PublishEventsRequest__Output[] = [];
  let calls = 0;
  relay = startOutboxRelay({
    db,
    schema,
    source: 'test',
    log,
    // Long unless a test says otherwise: only a notification can wake the relay in time.
    pollMs: 60_000,
    backoffMs: { min: 10, max: 50 },
    publish: async (request) => {
      if (options.fail?.(++calls)) throw new Error('realtime is down');
      batches.push(request);
    },
    ...options,
  });
  const published = () =>
    batches.flatMap((b) => b.events.map((e) => JSON.parse(e.payload) as { n: number }).map((p) => p.n));
  return { batches, published };
}

describe('outbox relay', () => {
  it('publishes a committed event on its notification, as realtime expects it, and deletes it', async () => {
    const { batches } = start();
    // Let the relay's first drain and LISTEN happen: what follows can only arrive by the notification.
    await waitFor('the relay to listen', listening);
    const e = entry(1);
    await append([e]);
    await waitFor('the event to be published', () => batches.length === 1, 5000, 10);
    const [batch] = batches;
    expect(batch!.source).toBe('test');
    expect(batch!.events).toEqual([
      {
        source_id: expect.stringMatching(/^\d+$/),
        workspace_id: workspaceId,
        channel: `private-workspace-${workspaceId}`,
        name: 'test.event',
        payload: expect.any(String),
        created_at: expect.any(String),
      },
    ]);
    expect(JSON.parse(batch!.events[0]!.payload)).toEqual(e.payload);
    expect(new Date(batch!.events[0]!.created_at).toISOString()).toBe(batch!.events[0]!.created_at);
    await waitFor('the published row to be deleted', async () => (await remaining()) === 0, 5000, 10);
  });

  it('gathers what commits while it waits after a publish into one batch; the first event after a quiet spell goes alone', async () => {
    // Long enough that the three appends below surely fall inside it.
    const { batches, published } = start({ gatherMs: 3000 });
    await waitFor('the relay to listen', listening);
    await append([entry(1)]);
    await waitFor('the first event to be published', () => published().length === 1, 5000, 10);
    for (const n of [2, 3, 4]) await append([entry(n)]);
    await waitFor('the gathered events to be published', () => published().length === 4, 5000, 10);
    expect(batches.map((b) => b.events.length)).toEqual([1, 3]);
    expect(published()).toEqual([1, 2, 3, 4]);
  });

  it('appends nothing, and notifies nothing, when the transaction rolls back', async () => {
    await expect(
      transactor(db)(async (tx) => {
        await appendAsPreviousRelease(db, [entry(1)], tx);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    await append([]);
    expect(await remaining()).toBe(0);
  });

  it('lets appends to one channel commit side by side, publishing each event once its transaction committed', async () => {
    const { published } = start();
    await waitFor('the relay to listen', listening);
    const first = await held();
    try {
      await appendAsPreviousRelease(db, [entry(1)], first.tx);
      // The same channel, while `first` is open: no wait.
      await append([entry(2)]);
      await waitFor('the committed event to be published', () => published().length === 1, 5000, 10);
      expect(published()).toEqual([2]);
      await first.commit();
      await waitFor('the other event to be published', () => published().length === 2, 5000, 10);
      expect(published()).toEqual([2, 1]);
    } finally {
      await first.rollback();
    }
  });

  it('publishes two changes of one row in the order of the changes, whichever transaction began first', async () => {
    const { published } = start();
    await waitFor('the relay to listen', listening);
    await db.raw('CREATE TABLE IF NOT EXISTS things (id int PRIMARY KEY, version int NOT NULL)');
    await db.raw('INSERT INTO things VALUES (1, 0) ON CONFLICT (id) DO UPDATE SET version = 0');
    // Each change updates the row (holding its lock until commit), then appends the version it wrote.
    const change = async (t: { tx: Tx; q: Queryable }) => {
      const { rows } = await t.q.raw('UPDATE things SET version = version + 1 WHERE id = 1 RETURNING version');
      await appendAsPreviousRelease(db, [entry((rows as Array<{ version: number }>)[0]!.version)], t.tx);
    };
    const older = await held();
    const newer = await held();
    try {
      await older.q.raw('SELECT pg_current_xact_id()');
      await change(newer);
      // `older` waits for the row until `newer` commits; its event then takes the higher id.
      const waiting = change(older);
      await newer.commit();
      await waiting;
      await older.commit();
    } finally {
      await older.rollback();
      await newer.rollback();
    }
    await waitFor('both events to be published', () => published().length === 2, 5000, 10);
    expect(published()).toEqual([1, 2]);
  });

  it('publishes a backlog of large payloads in batches that fit the byte limit, in order', async () => {
    const { batches, published } = start({ batchBytes: 3000 });
    const big = (n: number): OutboxEntry => ({
      ...entry(n),
      payload: { event_id: randomUUID(), n, text: 'x'.repeat(1000) },
    });
    await append([big(1), big(2), big(3), big(4), big(5)]);
    await waitFor('the backlog to be published', () => published().length === 5, 5000, 10);
    expect(published()).toEqual([1, 2, 3, 4, 5]);
    expect(batches.map((b) => b.events.length)).toEqual([2, 2, 1]);
    // A single payload over the limit still goes, alone.
    await append([{ ...entry(6), payload: { event_id: randomUUID(), n: 6, text: 'x'.repeat(5000) } }]);
    await waitFor('the oversized row to be published', () => published().length === 6, 5000, 10);
    expect(batches.at(-1)!.events).toHaveLength(1);
  });

  it('drains a backlog in batches, oldest first, deleting each batch it published', async () => {
    for (let n = 1; n <= 7; n++) await append([entry(n)]);
    const { batches, published } = start({ batchSize: 3 });
    await waitFor('the backlog to be published', () => published().length === 7, 5000, 10);
    expect(published()).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(batches.map((b) => b.events.length)).toEqual([3, 3, 1]);
    await waitFor('the backlog to be deleted', async () => (await remaining()) === 0, 5000, 10);
  });

  it("takes turns with another replica's relay: every event goes once, in order, whichever relay sends it", async () => {
    const seen: number[] = [];
    const relays = [0, 1].map(() =>
      startOutboxRelay({
        db,
        schema,
        source: 'test',
        log,
        pollMs: 20,
        gatherMs: 0,
        batchSize: 7,
        // A publish that takes a while: without turns, the other relay reads the same rows meanwhile.
        publish: async (request) => {
          await new Promise((resolve) => setTimeout(resolve, Math.random() * 15));
          seen.push(...request.events.map((e) => (JSON.parse(e.payload) as { n: number }).n));
        },
      }),
    );
    try {
      await Promise.all(Array.from({ length: 40 }, (_, i) => append([1, 2, 3, 4, 5].map((k) => entry(i * 5 + k)))));
      await waitFor('the events to be published', () => seen.length >= 200, 10_000, 10);
      // A canary appended after them: once it is out, any repeat of the earlier ones would have shown.
      await append([entry(201)]);
      await waitFor('the canary', () => seen.includes(201), 10_000, 10);
      expect(seen.slice().sort((a, b) => a - b)).toEqual(Array.from({ length: 201 }, (_, i) => i + 1));
      // In commit order (the 40 appends raced, so by id: each transaction's five stay together and in order).
      const ids = (n: number) => Math.floor((n - 1) / 5);
      for (let i = 1; i < seen.length; i++)
        if (ids(seen[i]!) === ids(seen[i - 1]!)) expect(seen[i]).toBe(seen[i - 1]! + 1);
      await waitFor('the published rows to be deleted', async () => (await remaining()) === 0, 5000, 10);
    } finally {
      await Promise.all(relays.map((r) => r.stop()));
    }
  });

  it('lets one relay listen and drain while another stands by, which takes the lead within its poll once the first is gone', async () => {
    const by: number[][] = [[], []];
    let gate: (() => void) | undefined;
    const held = new Promise<void>((resolve) => (gate = resolve));
    let entered: () => void;
    const publishing = new Promise<void>((resolve) => (entered = resolve));
    const relayAt = (i: number, pollMs: number) =>
      startOutboxRelay({
        db,
        schema,
        source: 'test',
        log,
        pollMs,
        gatherMs: 0,
        publish: async (request) => {
          // The first relay's first publish waits for the test: it holds the lock meanwhile.
          if (i === 0 && by[0]!.length === 0) {
            entered();
            await held;
          }
          by[i]!.push(...request.events.map((e) => (JSON.parse(e.payload) as { n: number }).n));
        },
      });
    await append([entry(0)]);
    const first = relayAt(0, 60_000);
    await publishing;
    const second = relayAt(1, 60_000);
    try {
      // The second finds the lead taken and stands by, not listening: its poll does not come within this test.
      await waitFor('the second relay to stand by', oneStandingBy, 10_000, 10);
      expect(await listeners()).toHaveLength(1);
      gate!();
      for (let i = 1; i <= 30; i++) await append([entry(i)]);
      await waitFor('the events to be published', () => by[0]!.length >= 31, 10_000, 10);
      // A canary after them: published by the first, so the second had its chance at every notification before it.
      await append([entry(31)]);
      await waitFor('the canary', () => by[0]!.includes(31), 10_000, 10);
      // Listening, the second would wake on each of the 31 notifications, try the batch lock and take some batches.
      expect(by[1]).toEqual([]);
      expect(by[0]).toEqual(Array.from({ length: 32 }, (_, i) => i));
      expect(await listeners()).toHaveLength(1);
    } finally {
      gate!();
      await Promise.all([first.stop(), second.stop()]);
    }

    // A standby with a short poll takes over once the relay that held the lock is gone.
    const again = new Promise<void>((resolve) => (entered = resolve));
    by[0] = [];
    let release: () => void;
    const releasing = new Promise<void>((resolve) => (release = resolve));
    const holder = startOutboxRelay({
      db,
      schema,
      source: 'test',
      log,
      pollMs: 60_000,
      publish: async () => {
        entered();
        await releasing;
      },
    });
    await append([entry(100)]);
    await again;
    const standby = relayAt(1, 100);
    try {
      release!();
      await holder.stop();
      await append([entry(101)]);
      await waitFor('the standby to take over', () => by[1]!.includes(101), 10_000, 10);
      await waitFor('the published row to be deleted', async () => (await remaining()) === 0, 5000, 10);
    } finally {
      release!();
      await Promise.all([holder.stop(), standby.stop()]);
    }
  });

  it('stands by while another session holds the lead, but drains rows that waited longer than a poll', async () => {
    // A relay whose host vanished: Postgres keeps its session, and the lead, until TCP keepalives end it.
    const zombie = (await db.client.acquireRawConnection()) as pg.Client;
    try {
      await zombie.query('SELECT pg_advisory_lock(hashtext($1))', [`wms-outbox-relay-lead:${schema}.outbox`]);
      const { published } = start({ pollMs: 200 });
      await waitFor('the relay to stand by', oneStandingBy, 10_000, 10);
      expect(await listeners()).toEqual([]);
      const appended = Date.now();
      await append([entry(1)]);
      await waitFor('the waiting row to be published', () => published().length === 1, 10_000, 10);
      // Not on the notification (the standby does not listen): once the row had waited a poll.
      expect(Date.now() - appended).toBeGreaterThanOrEqual(200);
      await waitFor('the row to be deleted', async () => (await remaining()) === 0, 5000, 10);
      expect(await listeners()).toEqual([]);
    } finally {
      await db.client.destroyRawConnection(zombie);
    }
    // The lead is free again: the relay takes it within a poll and listens.
    await waitFor('the relay to take the lead', listening, 10_000, 10);
  });

  it('leaves the rows in place while publishing fails, and publishes them once it works again', async () => {
    let down = true;
    const { published } = start({ fail: () => down });
    await append([entry(1), entry(2)]);
    await waitFor(
      'a few failed publishes',
      () =>
        lines.filter((l) => l.msg.startsWith('outbox relay could not publish') && (l.failures ?? 0) >= 3).length > 0,
      5000,
      10,
    );
    expect(published()).toEqual([]);
    expect(await remaining()).toBe(2);
    down = false;
    await waitFor('the events to be published', () => published().length === 2, 5000, 10);
    expect(published()).toEqual([1, 2]);
    await waitFor('the rows to be deleted', async () => (await remaining()) === 0, 5000, 10);
    await waitFor(
      'the relay to say it publishes again',
      () => lines.some((l) => l.msg === 'outbox relay publishing again'),
      5000,
      10,
    );
  });

  it('publishes again, with the same source ids, what was published but not deleted', async () => {
    // The delete after a successful publish fails, as if the worker died between the two.
    await db.raw(`
      CREATE FUNCTION refuse_delete() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'no delete'; END $$;
      CREATE TRIGGER outbox_refuse_delete BEFORE DELETE ON outbox FOR EACH ROW EXECUTE FUNCTION refuse_delete();
    `);
    try {
      await append([entry(1), entry(2)]);
      const { batches } = start();
      await waitFor('the same batch to be published twice', () => batches.length >= 2, 5000, 10);
      expect(await remaining()).toBe(2);
      const ids = batches.map((b) => b.events.map((e) => e.source_id));
      expect(ids[1]).toEqual(ids[0]);
      expect(ids[0]).toHaveLength(2);
    } finally {
      await db.raw('DROP TRIGGER outbox_refuse_delete ON outbox; DROP FUNCTION refuse_delete()');
    }
    await waitFor('the rows to be deleted once the delete works', async () => (await remaining()) === 0, 5000, 10);
  });

  it('stops at once when stopped while its LISTEN is on its way, leaving no connection behind', async () => {
    // The relay's own pool, whose connections hold a LISTEN until the test lets it go.
    const gated = createDb({ url: database.url, schema, log });
    let atListen!: () => void;
    const listenSent = new Promise<void>((resolve) => (atListen = resolve));
    let firstRead!: () => void;
    const read = new Promise<void>((resolve) => (firstRead = resolve));
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const acquire = gated.client.acquireRawConnection.bind(gated.client);
    gated.client.acquireRawConnection = async () => {
      const connection = (await acquire()) as pg.Client;
      const query = connection.query.bind(connection) as (...args: unknown[]) => unknown;
      (connection as { query: unknown }).query = (...args: unknown[]) => {
        if (typeof args[0] !== 'string' || !args[0].startsWith('LISTEN')) {
          const [config, callback] = args as [{ text?: string }, (...r: unknown[]) => void];
          if (!config.text?.includes('ORDER BY id LIMIT') || typeof callback !== 'function') return query(...args);
          return query(config, (...r: unknown[]) => {
            callback(...r);
            firstRead();
          });
        }
        atListen();
        return gate.then(() => query(...args));
      };
      return connection;
    };
    try {
      const stopping = startOutboxRelay({
        db: gated,
        schema,
        source: 'test',
        log,
        pollMs: 60_000,
        publish: async () => undefined,
      });
      // The drain's first read done and the LISTEN held: the stop below finds the relay idle, its LISTEN on its way.
      await Promise.all([listenSent, read]);
      let stopped = false;
      void stopping.stop().then(() => (stopped = true));
      // Every step of the stop that needs no I/O is taken before a timer fires; then the LISTEN is answered.
      await new Promise((resolve) => setTimeout(resolve, 0));
      release();
      await waitFor('the relay to stop', () => stopped, 5000, 10);
      expect(await listeners()).toEqual([]);
    } finally {
      release();
      await gated.destroy();
    }
  });

  it('listens again after losing its connection, and once stopped leaves what commits to the next relay', async () => {
    const { published } = start();
    await waitFor('the relay to listen', listening);
    await db.raw(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query = ?`,
      [`LISTEN "${outboxNotifyChannel(schema)}"`],
    );
    await waitFor(
      'the relay to listen again',
      async () =>
        (await listeners()).length === 1 && lines.some((l) => l.msg === 'outbox relay has its connection again'),
      10_000,
      20,
    );
    await append([entry(1)]);
    await waitFor('the event to be published', () => published().length === 1, 5000, 10);

    await relay!.stop();
    relay = undefined;
    expect(await listeners()).toEqual([]);
    await append([entry(2)]);
    // The canary, a relay started after the commit: a stopped relay still listening would have been told of the event
    // first, and the next one publishes it only if the stopped one left it alone.
    const next = start();
    await waitFor('the next relay to publish the event', () => next.published().length === 1, 5000, 10);
    expect(next.published()).toEqual([2]);
    expect(published()).toEqual([1]);
    // Nor does the stopped relay take its closed connection for a lost one and LISTEN again.
    await waitFor('the next relay to be the only one listening', listening);
  });
});

/** The relay's LISTEN connections (their last statement is the LISTEN) in this test's database. */
async function listeners(): Promise<number[]> {
  const { rows } = await db.raw(
    `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND query = ? AND state = 'idle'`,
    [`LISTEN "${outboxNotifyChannel(schema)}"`],
  );
  return (rows as Array<{ pid: number }>).map((r) => r.pid);
}

const listening = async () => (await listeners()).length === 1;

/** The relays' own connections that stand by (their last statement tried the lead lock and found it taken). */
/** True once exactly one relay stands by; else throws what it saw, which a timed-out wait reports. */
async function oneStandingBy(): Promise<true> {
  const waiting = await standingBy();
  const listening = await listeners();
  if (waiting.length !== 1) throw new Error(`${waiting.length} standing by, ${listening.length} listening`);
  return true;
}

/**
 * The connections whose last statement was a relay's try for the lead, and are idle: standing by. The statement is
 * matched whole: a pattern would also match this query's own text, left as the last statement of an idle connection
 * of the test's pool (seen as two standing by, now and then, when the pool used another connection for the next poll).
 */
async function standingBy(): Promise<number[]> {
  const { rows } = await db.raw(
    `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND query = ? AND state = 'idle'`,
    ['SELECT pg_try_advisory_lock(hashtext($1)) AS leading'],
  );
  return (rows as Array<{ pid: number }>).map((r) => r.pid);
}
