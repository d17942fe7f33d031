import { buildIndexConcurrently, type Knex, requireExtension } from '@wms/kit/db';

// The mention picker (contract §10, `GET /workspace/actors?q=`): display names that contain the typed text,
// case-insensitively, found through a trigram index (`pg_trgm`) rather than by reading every actor of the workspace.
// Built without holding the table's writes.
export const config = { transaction: false };

export async function up(knex: Knex): Promise<void> {
  await requireExtension(knex, 'pg_trgm');
  await buildIndexConcurrently(
    knex,
    'actors_display_name_trgm_idx',
    'ON actors USING gin (lower(display_name) public.gin_trgm_ops)',
  );
}
