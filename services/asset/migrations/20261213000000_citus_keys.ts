import { buildIndexConcurrently, type Knex } from '@wms/kit/db';
import { replacePrimaryKey } from '@wms/kit/schema-changes';

// A key Citus can distribute by workspace (placement.ts): `workspace_id` leads the primary
// key, built concurrently and swapped in a brief lock (kit schema-changes.ts); each step can run again.
export const config = { transaction: false };

export async function up(knex: Knex): Promise<void> {
  // The previous release's cleanup sweep deletes by id alone; the next release drops this.
  await buildIndexConcurrently(knex, 'assets_id_idx', 'ON assets (id)');
  await replacePrimaryKey(knex, 'assets', ['workspace_id', 'id']);
  // The new key leads with the workspace, which served a purge's reads alone.
  await knex.raw('DROP INDEX CONCURRENTLY IF EXISTS assets_workspace_idx');
}
