import { type Knex, queryable } from './db.ts';
import type { Tx } from './transactions.ts';

// The writing side of a data owner's outbox (contract §7 events): every owner keeps a table `outbox` in its own
// schema, of the same shape (id bigint identity, xid xid8 DEFAULT pg_current_xact_id(), workspace_id, channel,
// event, payload jsonb, created_at), and its relay (outbox-relay.ts) hands the rows to the realtime service.

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

/**
 * Appends events inside the change's transaction, so an event exists exactly when its change committed, and
 * NOTIFYs the relay: Postgres delivers the notification on commit and drops it on rollback. The row's xid (its
 * column default) is what lets the relay publish in commit order without skipping a slow transaction.
 */
export async function appendToOutbox(db: Knex, entries: OutboxEntry[], tx: Tx): Promise<void> {
  if (entries.length === 0) return;
  const q = queryable(db, tx);
  await q(OUTBOX_TABLE).insert(entries.map((e) => ({ workspace_id: e.workspaceId, channel: e.channel, event: e.event, payload: JSON.stringify(e.payload) })));
  // The pool's search_path is the owner's schema alone, so current_schema() names the same channel the relay listens to.
  await q.raw(`SELECT pg_notify(current_schema() || '_' || ?, '')`, [OUTBOX_TABLE]);
}
