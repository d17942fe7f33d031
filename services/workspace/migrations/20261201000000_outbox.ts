import type { Knex } from '@wms/kit/db';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    -- Changes realtime clients must see (contract §7), written in the same transaction as the change (kit's
    -- appendToOutbox) and drained by the worker's relay. xid is the writing transaction: the relay publishes a row
    -- once every transaction that could commit before it has ended, in (xid, id) order.
    CREATE TABLE outbox (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      xid xid8 NOT NULL DEFAULT pg_current_xact_id(),
      workspace_id uuid NOT NULL,
      channel text NOT NULL,
      event text NOT NULL,
      payload jsonb NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX outbox_xid_idx ON outbox (xid, id);
  `);
}
