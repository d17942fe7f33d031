import type { Knex } from '@wms/kit/db';
import { briefLockStep, replacePrimaryKey } from '@wms/kit/schema-changes';

// The contract half of the keys Citus distributes by workspace (issue 42; 20261214000000_workspace_columns and
// 20261214010000_citus_keys were the expand half): what those kept for the release before them goes, now that the
// previous release (the one that made them) names the workspace in every statement and no key in its upserts. On a live
// database: each trigger dropped in a brief step, each key swapped from an index built concurrently, each index dropped
// concurrently (kit schema-changes.ts); each step can run again.
export const config = { transaction: false };

/** The triggers that filled `workspace_id` for inserts that did not name it, and kept rows a release without `children` wrote consistent. */
const TRIGGERS: Array<[table: string, name: string]> = [
  ['mentions', 'mentions_workspace_id_fill'],
  ['reactions', 'reactions_workspace_id_fill'],
  ['message_versions', 'message_versions_workspace_id_fill'],
  ['conversation_reads', 'conversation_reads_workspace_id_fill'],
  ['client_messages', 'client_messages_workspace_id_fill'],
  ['messages', 'messages_written_before_children'],
];

/** The primary keys the upserts of the release before the previous one named, led by the workspace now. */
const PRIMARY_KEYS: Array<[table: string, columns: string[]]> = [
  ['channel_members', ['channel_id', 'actor_id']],
  ['conversation_reads', ['actor_id', 'conversation_id']],
  ['thread_reads', ['actor_id', 'root_id']],
  ['client_messages', ['conversation_id', 'actor_id', 'client_message_id']],
];

/** Lookups by an old key's leading column alone, which no statement makes now: each names the workspace. */
const LOOKUPS = ['messages_id_idx', 'channels_id_idx', 'message_versions_id_idx', 'reactions_message_idx'];

export async function up(knex: Knex): Promise<void> {
  for (const [table, name] of TRIGGERS) {
    await briefLockStep(
      knex,
      [[table, 'ACCESS EXCLUSIVE']],
      [`DROP TRIGGER IF EXISTS "${name}" ON "${table}"`, `DROP FUNCTION IF EXISTS "${name}"()`],
    );
  }
  for (const [table, columns] of PRIMARY_KEYS) await replacePrimaryKey(knex, table, ['workspace_id', ...columns]);
  for (const name of LOOKUPS) await knex.raw('DROP INDEX CONCURRENTLY IF EXISTS ??', [name]);
}
