import type { Knex } from '@wms/kit/db';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    -- Rows are numbered in each channel's commit order now (kit appendToOutbox locks the channel), so the relay
    -- publishes in id order and no longer orders by the writing transaction's id.
    DROP INDEX outbox_xid_idx;
    ALTER TABLE outbox DROP COLUMN xid;
  `);
}
