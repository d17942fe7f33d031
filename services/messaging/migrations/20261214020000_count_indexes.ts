import type { Knex } from '@wms/kit/db';
import { replaceIndex } from '@wms/kit/schema-changes';

// Pages, unread and mention counts, a conversation's last activity and an actor's memberships name the workspace now
// (issue 42: Citus routes a statement by it), and stay index range scans from the cursor or the mark (the counts, the
// last activity and the memberships index-only): the indexes they read take `workspace_id` as their last key column,
// which a scan checks in the index rather than in each row it reads. Last, not first: the previous release's
// statements, which do not name it, read them too.
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
    ['messages_activity_idx', 'ON messages (conversation_id, created_at, workspace_id)'],
    ['channel_members_actor_idx', 'ON channel_members (actor_id, channel_id, workspace_id)'],
  ];
  for (const [name, definition] of indexes) await replaceIndex(knex, name, definition, 'workspace_id');
}
