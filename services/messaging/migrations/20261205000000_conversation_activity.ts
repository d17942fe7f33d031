import { buildIndexConcurrently, type Knex } from '@wms/kit/db';

// A conversation's newest message time (its `last_message_at`, the sidebar's order): one probe of this index. Keyed by
// time, not id, so that the message pages keep messages_top_idx and messages_replies_idx. It replaces
// messages_conversation_idx, whose one column it starts with. Built without holding the table's writes.
export const config = { transaction: false };

export async function up(knex: Knex): Promise<void> {
  await buildIndexConcurrently(knex, 'messages_activity_idx', 'ON messages (conversation_id, created_at)');
  await knex.raw('DROP INDEX CONCURRENTLY IF EXISTS messages_conversation_idx');
}
