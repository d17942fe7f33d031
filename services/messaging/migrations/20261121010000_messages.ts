import type { Knex } from '@wms/kit/db';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE messages (
      id uuid PRIMARY KEY, -- UUIDv7: ordering by id is ordering by creation time
      workspace_id uuid NOT NULL,
      conversation_id uuid NOT NULL REFERENCES channels (id),
      parent_message_id uuid REFERENCES messages (id),
      author_actor_id uuid NOT NULL,
      body_text text NOT NULL,
      mentioned_actor_ids uuid[] NOT NULL DEFAULT '{}',
      loading_expires_at timestamptz,
      reply_count integer NOT NULL DEFAULT 0,
      reply_actor_ids uuid[] NOT NULL DEFAULT '{}',
      last_reply_at timestamptz,
      -- Summary of the reactions table, rewritten with every change under the message's row lock.
      reactions jsonb NOT NULL DEFAULT '[]',
      reactions_version integer NOT NULL DEFAULT 0,
      edited_at timestamptz,
      deleted_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    -- Pages of top-level messages and of a thread's replies; the included columns let unread counts run as
    -- index-only range scans from the last read message.
    CREATE INDEX messages_top_idx ON messages (conversation_id, id) INCLUDE (author_actor_id, deleted_at)
      WHERE parent_message_id IS NULL;
    CREATE INDEX messages_replies_idx ON messages (parent_message_id, id) INCLUDE (author_actor_id, deleted_at)
      WHERE parent_message_id IS NOT NULL;
    -- Threads of a workspace (roots with at least one reply), by root id.
    CREATE INDEX messages_threads_idx ON messages (workspace_id, id) WHERE parent_message_id IS NULL AND reply_count > 0;

    -- client_message_id idempotency: the first post of a key within 24 hours claims it.
    CREATE TABLE client_messages (
      conversation_id uuid NOT NULL,
      actor_id uuid NOT NULL,
      client_message_id text NOT NULL,
      message_id uuid NOT NULL REFERENCES messages (id) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (conversation_id, actor_id, client_message_id)
    );

    -- Who is mentioned where, for mention counts (the author's own mentions are not stored).
    CREATE TABLE mentions (
      actor_id uuid NOT NULL,
      message_id uuid NOT NULL REFERENCES messages (id) ON DELETE CASCADE,
      conversation_id uuid NOT NULL,
      thread_root_id uuid,
      PRIMARY KEY (actor_id, message_id)
    );
    CREATE INDEX mentions_conversation_idx ON mentions (actor_id, conversation_id, message_id) WHERE thread_root_id IS NULL;
    CREATE INDEX mentions_thread_idx ON mentions (actor_id, thread_root_id, message_id) WHERE thread_root_id IS NOT NULL;

    CREATE TABLE reactions (
      message_id uuid NOT NULL REFERENCES messages (id) ON DELETE CASCADE,
      emoji text NOT NULL,
      actor_id uuid NOT NULL,
      seq bigint GENERATED ALWAYS AS IDENTITY,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (message_id, emoji, actor_id)
    );

    CREATE TABLE saved_messages (
      actor_id uuid NOT NULL,
      message_id uuid NOT NULL REFERENCES messages (id) ON DELETE CASCADE,
      workspace_id uuid NOT NULL,
      seq bigint GENERATED ALWAYS AS IDENTITY,
      saved_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (actor_id, message_id)
    );
    CREATE INDEX saved_messages_page_idx ON saved_messages (actor_id, seq);

    CREATE TABLE conversation_reads (
      actor_id uuid NOT NULL,
      conversation_id uuid NOT NULL REFERENCES channels (id),
      last_read_message_id uuid NOT NULL,
      last_read_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (actor_id, conversation_id)
    );

    -- Read state and subscription per actor and thread root. following: null = implicit (author or mentioned in
    -- the root), set once the actor replies, is mentioned in a reply, or subscribes explicitly.
    CREATE TABLE thread_reads (
      actor_id uuid NOT NULL,
      root_id uuid NOT NULL REFERENCES messages (id) ON DELETE CASCADE,
      workspace_id uuid NOT NULL,
      conversation_id uuid NOT NULL,
      following boolean,
      last_read_message_id uuid,
      last_read_at timestamptz,
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (actor_id, root_id)
    );
    CREATE INDEX thread_reads_following_idx ON thread_reads (actor_id, root_id) WHERE following;
  `);
}
