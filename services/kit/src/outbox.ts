import { type Knex, queryable } from './db.ts';
import type { Tx } from './transactions.ts';

// The writing side of a data owner's outbox (contract §7 events): every owner keeps a table `outbox` in its own
// schema, of the same shape (createOutboxTable: id bigint identity, workspace_id, channel, event, payload jsonb,
// created_at), and its relay (outbox-relay.ts) hands the rows to the realtime service.

/** The owner's outbox table, in the owner's schema. */
export const OUTBOX_TABLE = 'outbox';

/** What a schema's outbox NOTIFYs on commit and its relay LISTENs to: `<schema>_outbox`. */
export const outboxNotifyChannel = (schema: string) => `${schema}_${OUTBOX_TABLE}`;

/**
 * Creates the owner's `outbox` table, for the migration that introduces it. It is part of migrations already applied:
 * never change it; a later change of the table is a new migration of each owner.
 */
export async function createOutboxTable(knex: Knex): Promise<void> {
  await knex.raw(
    `CREATE TABLE ?? (
       id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
       workspace_id uuid NOT NULL,
       channel text NOT NULL,
       event text NOT NULL,
       payload jsonb NOT NULL,
       created_at timestamptz NOT NULL DEFAULT now()
     )`,
    [OUTBOX_TABLE],
  );
}

/** One event for realtime clients, as an owner records it with the change it reports. */
export interface OutboxEntry {
  workspaceId: string;
  /** The provider channel (channels.ts). */
  channel: string;
  event: string;
  /** What clients receive, `event_id` (a UUID) included. */
  payload: Record<string, unknown>;
}

/**
 * Appends events inside the change's transaction, so an event exists exactly when its change committed, and
 * NOTIFYs the relay: Postgres delivers the notification on commit and drops it on rollback. One statement.
 *
 * Call it after the change it reports, while the transaction holds that change's row locks (the simplest: as the
 * transaction's last statement). Then two changes of one thing (a message, its reactions, a thread, a read mark, a
 * member) are ordered: the later transaction waited for the earlier one's commit before its rows took their ids,
 * so its events have the higher ids and become visible after, and the relay, which publishes committed rows in id
 * order, publishes them in the order of the changes. Events of different things on one channel are published as
 * they become visible, and are not held to one order: a channel takes no lock of its own, so a busy channel's
 * writes commit side by side (a lock held to the commit would cap it at one commit, about one disk flush, at a
 * time).
 */
export async function appendToOutbox(db: Knex, entries: OutboxEntry[], tx: Tx): Promise<void> {
  if (entries.length === 0) return;
  const rows = entries.map((e) => ({
    workspace_id: e.workspaceId,
    channel: e.channel,
    event: e.event,
    payload: e.payload,
  }));
  // ORDER BY keeps the entries' order in the ids. The pool's search_path is the owner's schema alone, so
  // current_schema() names the channel the relay listens to.
  await queryable(db, tx).raw(
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
