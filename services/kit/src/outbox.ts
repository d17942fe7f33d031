import { createHash } from 'node:crypto';
import { type Knex, queryable } from './db.ts';
import type { Tx } from './transactions.ts';

// The writing side of a data owner's outbox (contract §7 events): every owner keeps a table `outbox` in its own
// schema, of the same shape (id bigint identity, workspace_id, channel, event, payload jsonb, created_at), and its
// relay (outbox-relay.ts) hands the rows to the realtime service.

/** The owner's outbox table, in the owner's schema. */
export const OUTBOX_TABLE = 'outbox';

/** What a schema's outbox NOTIFYs on commit and its relay LISTENs to: `<schema>_outbox`. */
export const outboxNotifyChannel = (schema: string) => `${schema}_${OUTBOX_TABLE}`;

/** One event for realtime clients, as an owner records it with the change it reports. */
export interface OutboxEntry {
  workspaceId: string;
  /** The provider channel (channels.ts). */
  channel: string;
  event: string;
  /** What clients receive, `event_id` (a UUID) included. */
  payload: Record<string, unknown>;
}

/** The first key of the per-channel advisory locks ("outb"; realtime's locks use its schema name's hash there). */
const CHANNEL_LOCK_CLASS = 0x6f75_7462; // "outb"

/** A channel's lock key: 32 bits of its name's SHA-256. */
const channelLockKey = (channel: string) => createHash('sha256').update(channel).digest().readInt32BE(0);

/**
 * Appends events inside the change's transaction, so an event exists exactly when its change committed, and
 * NOTIFYs the relay: Postgres delivers the notification on commit and drops it on rollback.
 *
 * Each channel's rows are numbered in commit order: before its rows take their ids, the transaction locks each of
 * their channels until it ends (in key order, so two transactions cannot deadlock on them), so a later row of a
 * channel belongs to a transaction that committed later, and the relay publishes in id order. Call it as the
 * transaction's last statement: the locks are held until commit, and taking row locks after them could deadlock.
 * Lock, insert and notify are one statement, so a busy channel's lock is held for one round trip and the commit.
 */
export async function appendToOutbox(db: Knex, entries: OutboxEntry[], tx: Tx): Promise<void> {
  if (entries.length === 0) return;
  const keys = [...new Set(entries.map((e) => channelLockKey(e.channel)))].sort((a, b) => a - b);
  const rows = entries.map((e) => ({ workspace_id: e.workspaceId, channel: e.channel, event: e.event, payload: e.payload }));
  // The insert reads the lock count, so no row takes its id before every lock is held; ORDER BY keeps the entries'
  // order in the ids. The pool's search_path is the owner's schema alone, so current_schema() names the channel the
  // relay listens to.
  await queryable(db, tx).raw(
    `WITH locked AS (SELECT pg_advisory_xact_lock(?, key) FROM unnest(?::int[]) AS key),
     appended AS (
       INSERT INTO ?? (workspace_id, channel, event, payload)
       SELECT (e.value->>'workspace_id')::uuid, e.value->>'channel', e.value->>'event', e.value->'payload'
       FROM jsonb_array_elements(?::jsonb) WITH ORDINALITY AS e(value, n), (SELECT count(*) FROM locked) AS l
       ORDER BY e.n
       RETURNING 1
     )
     SELECT pg_notify(current_schema() || '_' || ?, '') FROM (SELECT count(*) FROM appended) AS a`,
    [CHANNEL_LOCK_CLASS, keys, OUTBOX_TABLE, JSON.stringify(rows), OUTBOX_TABLE],
  );
}
