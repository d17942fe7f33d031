import type { Knex } from '@wms/kit/db';

// The contract half of the key Citus distributes by workspace (issue 42; 20261213000000_citus_keys was the expand half):
// the previous release (the one that made it) finds assets by workspace and id, and its messaging names the workspace
// of every message whose assets it releases, so the lookup by id alone goes, concurrently; it can run again.
export const config = { transaction: false };

export async function up(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX CONCURRENTLY IF EXISTS assets_id_idx');
}
