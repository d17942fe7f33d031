import type { Knex } from '@wms/kit/db';
import { replaceIndex } from '@wms/kit/schema-changes';

// Pages name the workspace now (issue 42: Citus routes a statement by it), and unread and mention counts are to: the
// indexes they read take `workspace_id` as their last key column, which a scan checks in the index rather than in each
// row it reads, and the counts stay index-only range scans from the mark. Last, not first: the previous release's pages
// and counts, which do not name it, read them too. (The counts' statements do not name it yet: naming it slowed the
// sidebar and the threads inbox in the bench, not yet explained.)
export const config = { transaction: false };

export async function up(knex: Knex): Promise<void> {
  // Inside up(): test databases are cloned from templates keyed by the migrations' text (testkit databases.ts).
  const indexes: Array<[name: string, definition: string]> = [
    [
      'messages_top_idx',
      'ON messages (conversation_id, id, workspace_id) INCLUDE (author_actor_id, deleted_at) WHERE parent_message_id IS NULL',
    ],
    [
      'messages_replies_idx',
      'ON messages (parent_message_id, id, workspace_id) INCLUDE (author_actor_id, deleted_at) WHERE parent_message_id IS NOT NULL',
    ],
    [
      'mentions_conversation_idx',
      'ON mentions (actor_id, conversation_id, message_id, workspace_id) WHERE thread_root_id IS NULL',
    ],
    [
      'mentions_thread_idx',
      'ON mentions (actor_id, thread_root_id, message_id, workspace_id) WHERE thread_root_id IS NOT NULL',
    ],
  ];
  for (const [name, definition] of indexes) await replaceIndex(knex, name, definition, 'workspace_id');
}
