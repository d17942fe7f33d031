import type { Knex } from '@wms/kit/db';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    -- The writing transaction's id: the relay publishes a row only once every transaction that could commit before
    -- it has ended, in (xid, id) order, so a transaction that commits late is never skipped (kit outbox-relay.ts).
    ALTER TABLE outbox ADD COLUMN xid xid8 NOT NULL DEFAULT pg_current_xact_id();
    CREATE INDEX outbox_xid_idx ON outbox (xid, id);
  `);
}
