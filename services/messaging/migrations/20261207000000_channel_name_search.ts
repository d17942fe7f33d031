import { buildIndexConcurrently, type Knex, requireExtension } from '@wms/kit/db';

// The channel picker (contract §10, `GET /channels?q=`): names that contain the typed text, case-insensitively,
// found through a trigram index (`pg_trgm`) rather than by reading every channel of the workspace. Built without
// holding the table's writes.
export const config = { transaction: false };

export async function up(knex: Knex): Promise<void> {
  await requireExtension(knex, 'pg_trgm');
  await buildIndexConcurrently(
    knex,
    'channels_name_trgm_idx',
    'ON channels USING gin (lower(name) public.gin_trgm_ops)',
  );
}
