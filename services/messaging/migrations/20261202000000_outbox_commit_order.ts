import type { Knex } from '@wms/kit/db';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    -- The relay publishes committed rows in id order and no longer orders by the writing transaction's id (kit
    -- outbox.ts says why id order keeps each thing's changes in order).
    DROP INDEX outbox_xid_idx;
    ALTER TABLE outbox DROP COLUMN xid;
  `);
}
