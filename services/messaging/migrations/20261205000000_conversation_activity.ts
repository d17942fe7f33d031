import type { Knex } from '@wms/kit/db';

// A conversation's newest message time (its `last_message_at`, the sidebar's order): one probe of this index. Keyed by
// time, not id, so that the message pages keep messages_top_idx and messages_replies_idx. It replaces
// messages_conversation_idx, whose one column it starts with. Built without holding the table's writes.
export const config = { transaction: false };

export async function up(knex: Knex): Promise<void> {
  // A build that failed leaves an invalid index behind; it is dropped and built again.
  const { rows } = await knex.raw<{ rows: unknown[] }>(
    `SELECT 1 FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
     WHERE c.relname = 'messages_activity_idx' AND c.relnamespace = current_schema()::regnamespace AND NOT i.indisvalid`,
  );
  if (rows.length > 0) await knex.raw('DROP INDEX CONCURRENTLY messages_activity_idx');
  await knex.raw('CREATE INDEX CONCURRENTLY IF NOT EXISTS messages_activity_idx ON messages (conversation_id, created_at)');
  await knex.raw('DROP INDEX CONCURRENTLY IF EXISTS messages_conversation_idx');
}
