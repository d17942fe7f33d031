import { buildIndexConcurrently, type Knex } from '@wms/kit/db';
import { type ForeignKey, preparePrimaryKey, replaceForeignKey, replacePrimaryKey } from '@wms/kit/schema-changes';

// Keys Citus can distribute by workspace (issue 42): `workspace_id` leads every primary key of the schema, and the keys
// to channels and messages match it on both sides, under their names and with their options. On a live database:
// indexes built concurrently, keys validated while writes go on, each swap a brief lock (kit schema-changes.ts); each
// step can run again. 20261214000000_workspace_columns gave every table the column.
export const config = { transaction: false };

/**
 * Plain indexes for what this release and the previous one look up by an old key's leading column alone, which the
 * new primary keys no longer lead with: messages, channels and message_versions by id (a message's reads and joins,
 * search, the purge, the fill triggers; a post's or a leave's member count; an edit's trimming of versions),
 * reactions by message (a summary's rewrite, a removal, a soft delete). The other tables' such reads keep an index:
 * channel_members, conversation_reads, thread_reads and client_messages their old primary keys, kept (below); mentions
 * and saved_messages their message and page indexes, which served them already (EXPLAIN, before and after). The next
 * release, whose statements name the workspace, drops these four.
 */
const LOOKUPS: Array<[name: string, definition: string]> = [
  ['messages_id_idx', 'ON messages (id)'],
  ['channels_id_idx', 'ON channels (id)'],
  ['message_versions_id_idx', 'ON message_versions (id)'],
  ['reactions_message_idx', 'ON reactions (message_id, emoji, actor_id)'],
];

const toChannel = (table: string, column: string): ForeignKey => ({
  table,
  name: `${table}_${column}_fkey`,
  columns: ['workspace_id', column],
  references: 'channels',
  referencedColumns: ['workspace_id', 'id'],
});

const toMessage = (table: string, column: string, options = 'ON DELETE CASCADE'): ForeignKey => ({
  table,
  name: `${table}_${column}_fkey`,
  columns: ['workspace_id', column],
  references: 'messages',
  referencedColumns: ['workspace_id', 'id'],
  options,
});

const FOREIGN_KEYS: ForeignKey[] = [
  toChannel('channel_members', 'channel_id'),
  toChannel('conversation_reads', 'conversation_id'),
  toChannel('messages', 'conversation_id'),
  // A top-level message has no parent: MATCH SIMPLE checks only replies.
  toMessage('messages', 'parent_message_id', ''),
  toMessage('mentions', 'message_id'),
  toMessage('reactions', 'message_id'),
  toMessage('saved_messages', 'message_id'),
  toMessage('thread_reads', 'root_id'),
  // A post claims its client_message_id before it inserts the message.
  toMessage('client_messages', 'message_id', 'ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED'),
  toMessage('message_versions', 'message_id'),
];

/**
 * Every table's primary key before, children first: a parent's old key goes once no key references it. Not yet those
 * of channel_members, conversation_reads, thread_reads and client_messages, whose upserts in both releases name their
 * old key (`ON CONFLICT (actor_id, root_id)`, which infers its arbiter from exactly those columns): beside a second
 * unique index on the same rows, two concurrent upserts of one new row would fail on the index their ON CONFLICT does
 * not name (23505) instead of one updating. A release whose upserts name no old key swaps them (placement.ts).
 */
const PRIMARY_KEYS: Array<[table: string, columns: string[]]> = [
  ['mentions', ['actor_id', 'message_id']],
  ['reactions', ['message_id', 'emoji', 'actor_id']],
  ['saved_messages', ['actor_id', 'message_id']],
  ['message_versions', ['id']],
  ['messages', ['id']],
  ['channels', ['id']],
];

export async function up(knex: Knex): Promise<void> {
  for (const [name, definition] of LOOKUPS) await buildIndexConcurrently(knex, name, definition);
  // The keys the composite foreign keys reference, made the primary keys last.
  await preparePrimaryKey(knex, 'channels', ['workspace_id', 'id']);
  await preparePrimaryKey(knex, 'messages', ['workspace_id', 'id']);
  for (const key of FOREIGN_KEYS) await replaceForeignKey(knex, key);
  for (const [table, columns] of PRIMARY_KEYS) await replacePrimaryKey(knex, table, ['workspace_id', ...columns]);
}
