import type { Knex } from '@wms/kit/db';
import { createOutboxTable } from '@wms/kit/outbox';

export async function up(knex: Knex): Promise<void> {
  // Changes realtime clients must see (contract §7), written in the same transaction as the change (kit's
  // appendToOutbox) and drained by the worker's relay.
  await createOutboxTable(knex);
  await knex.raw(`
    -- xid is the writing transaction: the relay publishes a row once every transaction that could commit before it
    -- has ended, in (xid, id) order.
    ALTER TABLE outbox ADD COLUMN xid xid8 NOT NULL DEFAULT pg_current_xact_id();
    CREATE INDEX outbox_xid_idx ON outbox (xid, id);
  `);
}
