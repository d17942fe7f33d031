import { type Knex, prepared, queryable } from './db.ts';
import type { Tx } from './transactions.ts';

// The writing side of a data owner's events (contract §7): `appendToOutbox` writes them into the WAL of the change's
// transaction. Until the release after this one, every owner also keeps the table `outbox` of the previous design in
// its own schema (createOutboxTable) and its relay (outbox-relay.ts), which hands rows that the previous release's
// processes still write, during a rolling upgrade, to the realtime service.

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

/** The prefix of the logical messages that carry events (pg_logical_emit_message), which realtime follows. */
export const EVENTS_MESSAGE_PREFIX = 'wms.events';

/**
 * Writes the events into the change's transaction as one logical message of its WAL (`pg_logical_emit_message`,
 * transactional): Postgres's own change stream carries it to the realtime worker once the transaction commits, in
 * commit order, and never when it rolls back. One statement, and no row: the realtime service's `events` table is the
 * one durable copy (services/realtime/README.md#events). The message names the writer's schema (the pool's
 * search_path) as the events' source.
 *
 * Commit order is the stream's order, so two changes of one thing (a message, its reactions, a thread, a read mark, a
 * member) reach clients in the order of the changes: the later transaction waited for the earlier one's row locks,
 * so it commits after it. Call it while the transaction holds the change's row locks (simplest: as its last
 * statement). Events of different things on one channel go in the order their transactions committed.
 */
export async function appendToOutbox(db: Knex, entries: OutboxEntry[], tx: Tx): Promise<void> {
  if (entries.length === 0) return;
  const events = entries.map((e) => ({
    workspace_id: e.workspaceId,
    channel: e.channel,
    event: e.event,
    payload: e.payload,
  }));
  await prepared(
    queryable(db, tx).raw(
      // jsonb, as realtime stores it: a text it would refuse (a \u0000) fails the change, not delivery.
      `SELECT pg_logical_emit_message(true, ?, jsonb_build_object('source', current_schema(), 'events', ?::jsonb)::text)`,
      [EVENTS_MESSAGE_PREFIX, JSON.stringify(events)],
    ),
  );
}
