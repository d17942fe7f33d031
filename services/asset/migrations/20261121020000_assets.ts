import type { Knex } from '@wms/kit/db';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE assets (
      id uuid PRIMARY KEY,
      workspace_id uuid NOT NULL,
      conversation_id uuid NOT NULL,
      reserved_by_actor_id uuid NOT NULL,
      message_id uuid,
      name text NOT NULL,
      content_type text NOT NULL,
      size_bytes bigint NOT NULL,
      status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'ready')),
      -- Set with status ready: where the bytes are. A ready asset never changes.
      storage_key text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX assets_message_idx ON assets (message_id) WHERE message_id IS NOT NULL;
    -- Reservations no message attached, for the cleanup sweep.
    CREATE INDEX assets_unattached_idx ON assets (created_at) WHERE message_id IS NULL;
  `);
}
