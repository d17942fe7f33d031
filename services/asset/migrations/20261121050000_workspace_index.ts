import type { Knex } from '@wms/kit/db';

export async function up(knex: Knex): Promise<void> {
  // The assets of a workspace, for purging a deleted one.
  await knex.raw('CREATE INDEX assets_workspace_idx ON assets (workspace_id)');
}
