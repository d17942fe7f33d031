import type { Knex } from '@wms/kit/db';
import { briefLockStep } from '@wms/kit/schema-changes';

// The contract half of the keys Citus distributes by workspace (issue 42; 20261213000000_citus_keys was the expand
// half): what that kept for the release before it goes, now that the previous release (the one that made it) reads
// actors, members and avatars by workspace and id, and deletes an agent's tokens itself. On a live database: the
// trigger dropped in a brief step, the indexes concurrently; each step can run again.
export const config = { transaction: false };

export async function up(knex: Knex): Promise<void> {
  await briefLockStep(
    knex,
    [['actors', 'ACCESS EXCLUSIVE']],
    [
      'DROP TRIGGER IF EXISTS actors_deleted_take_tokens ON actors',
      'DROP FUNCTION IF EXISTS actors_deleted_take_tokens()',
    ],
  );
  for (const table of ['actors', 'workspace_users', 'avatars'])
    await knex.raw('DROP INDEX CONCURRENTLY IF EXISTS ??', [`${table}_id_idx`]);
}
