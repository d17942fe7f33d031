import type { Knex } from '@wms/kit/db';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    -- Deleted messages whose assets are still to be removed by the asset service (the cleanup worker retries them).
    CREATE INDEX messages_unreleased_assets_idx ON messages (deleted_at) WHERE deleted_at IS NOT NULL AND asset_ids <> '{}';
    -- client_message_id claims past their 24 hours, swept by the cleanup worker.
    CREATE INDEX client_messages_created_idx ON client_messages (created_at);
  `);
}
