import type { Knex } from '@wms/kit/db';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    -- Every event of every source as it was (or will be) triggered; the id is the catch-up cursor.
    CREATE TABLE events (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      event_id uuid NOT NULL,
      source text NOT NULL,
      source_id text NOT NULL,
      workspace_id uuid NOT NULL,
      channel text NOT NULL,
      name text NOT NULL,
      data jsonb NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      triggered_at timestamptz,
      CONSTRAINT events_source_unique UNIQUE (source, source_id)
    );
    -- What the drainer still has to trigger, in id order.
    CREATE INDEX events_untriggered_idx ON events (id) WHERE triggered_at IS NULL;
    -- Catch-up of one workspace after a cursor.
    CREATE INDEX events_workspace_idx ON events (workspace_id, id);
    -- The retention sweep.
    CREATE INDEX events_triggered_idx ON events (triggered_at) WHERE triggered_at IS NOT NULL;

    -- One row: the highest event id the retention sweep removed; a cursor below it has lost events.
    CREATE TABLE event_retention (
      singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
      removed_through bigint NOT NULL DEFAULT 0
    );
    INSERT INTO event_retention DEFAULT VALUES;

    -- The workspace of each actor that authorized a channel, so that its actor channel's occupancy maps to a workspace.
    CREATE TABLE actor_workspaces (
      actor_id uuid PRIMARY KEY,
      workspace_id uuid NOT NULL
    );

    -- Actors online now, as reconciled from the provider, and why.
    CREATE TABLE presence (
      actor_id uuid PRIMARY KEY,
      workspace_id uuid NOT NULL,
      actor_channel boolean NOT NULL DEFAULT false,
      presence_member boolean NOT NULL DEFAULT false,
      since timestamptz NOT NULL DEFAULT now(),
      CHECK (actor_channel OR presence_member)
    );
    CREATE INDEX presence_workspace_idx ON presence (workspace_id, since, actor_id);
  `);
}
