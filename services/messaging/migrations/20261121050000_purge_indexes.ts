import type { Knex } from '@wms/kit/db';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    -- Lookups by message of the rows that hang off a message: deleting a message's mentions on soft delete, and the
    -- cascades when a deleted workspace's messages are purged.
    CREATE INDEX mentions_message_idx ON mentions (message_id);
    CREATE INDEX saved_messages_message_idx ON saved_messages (message_id);
    CREATE INDEX thread_reads_root_idx ON thread_reads (root_id);
    CREATE INDEX client_messages_message_idx ON client_messages (message_id);
    -- The rows that name a channel or workspace, for purging a deleted workspace (and the foreign key checks when its
    -- channels go: the other conversation indexes of messages are partial).
    CREATE INDEX conversation_reads_conversation_idx ON conversation_reads (conversation_id);
    CREATE INDEX messages_conversation_idx ON messages (conversation_id);
    CREATE INDEX outbox_workspace_idx ON outbox (workspace_id);
  `);
}
