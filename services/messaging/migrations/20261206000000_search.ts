import { buildIndexConcurrently, type Knex } from '@wms/kit/db';

// Search (contract §10): each message's text as a tsvector, written by the statements that write the text (post,
// edit, delete) with the configuration of SEARCH_TEXT_CONFIG, and a GIN index over it. Adding a nullable column
// without a default changes no row; the index is built without holding the table's writes. Messages written before
// this migration are filled in by the worker's sweep, a bounded batch at a time (`search IS NULL` and not deleted).
export const config = { transaction: false };

export async function up(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE messages ADD COLUMN IF NOT EXISTS search tsvector');
  // What the sweep still has to fill in, found without reading the whole table.
  await buildIndexConcurrently(
    knex,
    'messages_search_pending_idx',
    'ON messages (id) WHERE search IS NULL AND deleted_at IS NULL',
  );
  await buildIndexConcurrently(knex, 'messages_search_idx', 'ON messages USING gin (search)');
}
