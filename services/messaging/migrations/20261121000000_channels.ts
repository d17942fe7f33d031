import type { Knex } from '@wms/kit/db';
import { createOutboxTable } from '@wms/kit/outbox';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE channels (
      id uuid PRIMARY KEY,
      workspace_id uuid NOT NULL,
      -- Byte order for names (contract §4).
      name text COLLATE "C" NOT NULL,
      topic text,
      created_by_actor_id uuid NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT channels_name_key UNIQUE (workspace_id, name)
    );
  `);
  // Changes clients must see (contract §7), written in the same transaction as the change, for the realtime relay.
  await createOutboxTable(knex);
}
