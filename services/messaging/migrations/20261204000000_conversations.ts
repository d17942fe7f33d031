import type { Knex } from '@wms/kit/db';

// Conversations (contract §9): a channel is public, private or direct, and has members. Existing channels become
// public; their creators and everyone who posted in them become members.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE channels
      ADD COLUMN kind text NOT NULL DEFAULT 'public' CONSTRAINT channels_kind_check CHECK (kind IN ('public', 'private', 'direct')),
      ALTER COLUMN name DROP NOT NULL,
      -- Direct conversations have no name, channels always one.
      ADD CONSTRAINT channels_name_check CHECK ((kind = 'direct') = (name IS NULL)),
      -- Kept with every membership change, under the channel's row lock.
      ADD COLUMN member_count integer NOT NULL DEFAULT 0,
      -- Direct: every participant in id order, fixed for the conversation's life; channels: none.
      ADD COLUMN participant_actor_ids uuid[] NOT NULL DEFAULT '{}',
      ADD COLUMN archived_at timestamptz;
    -- One direct conversation per set of participants: concurrent creations of the same set meet here.
    CREATE UNIQUE INDEX channels_direct_key ON channels (workspace_id, participant_actor_ids) WHERE kind = 'direct';

    CREATE TABLE channel_members (
      channel_id uuid NOT NULL REFERENCES channels (id),
      actor_id uuid NOT NULL,
      workspace_id uuid NOT NULL,
      -- Null for a member who joined by itself (the creator, a poster, a PUT of one's own actor).
      added_by_actor_id uuid,
      joined_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (channel_id, actor_id)
    );
    -- An actor's conversations (the sidebar) and the access check, which asks for one (channel, actor) pair.
    CREATE INDEX channel_members_actor_idx ON channel_members (actor_id, channel_id);

    INSERT INTO channel_members (channel_id, actor_id, workspace_id, joined_at)
    SELECT id, created_by_actor_id, workspace_id, created_at FROM channels;
    INSERT INTO channel_members (channel_id, actor_id, workspace_id, joined_at)
    SELECT conversation_id, author_actor_id, workspace_id, min(created_at) FROM messages GROUP BY conversation_id, author_actor_id, workspace_id
    ON CONFLICT (channel_id, actor_id) DO NOTHING;
    UPDATE channels c SET member_count = n.count FROM (SELECT channel_id, count(*)::int AS count FROM channel_members GROUP BY channel_id) n WHERE n.channel_id = c.id;
  `);
}
