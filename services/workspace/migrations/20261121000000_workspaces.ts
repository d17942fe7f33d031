import type { Knex } from '@wms/kit/db';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE workspaces (
      id uuid PRIMARY KEY,
      name text NOT NULL,
      slug text NOT NULL,
      avatar_id uuid,
      deleted_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      -- Slugs stay taken after deletion (contract §3), so the row outlives the purge as a tombstone.
      CONSTRAINT workspaces_slug_key UNIQUE (slug)
    );

    CREATE TABLE actors (
      id uuid PRIMARY KEY,
      workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
      kind text NOT NULL CHECK (kind IN ('user', 'agent')),
      user_id uuid,
      display_name text NOT NULL,
      title text,
      avatar_id uuid,
      managed_by_admins boolean NOT NULL DEFAULT false,
      deactivated_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CHECK ((kind = 'user') = (user_id IS NOT NULL))
    );
    CREATE UNIQUE INDEX actors_user_per_workspace ON actors (workspace_id, user_id) WHERE user_id IS NOT NULL;
    CREATE INDEX actors_by_workspace ON actors (workspace_id, created_at, id);

    CREATE TABLE workspace_users (
      id uuid PRIMARY KEY,
      workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
      user_id uuid NOT NULL,
      actor_id uuid NOT NULL REFERENCES actors (id),
      role text NOT NULL CHECK (role IN ('owner', 'admin', 'member')),
      accepted_at timestamptz,
      removed_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT workspace_users_user_key UNIQUE (workspace_id, user_id)
    );
    -- One owner per workspace, enforced by the database.
    CREATE UNIQUE INDEX workspace_users_one_owner ON workspace_users (workspace_id) WHERE role = 'owner' AND removed_at IS NULL;
    CREATE INDEX workspace_users_by_user ON workspace_users (user_id) WHERE removed_at IS NULL;

    -- Stored avatar images; an owner's current one is named by its avatar_id, older ones are deleted.
    CREATE TABLE avatars (
      id uuid PRIMARY KEY,
      workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
      owner_kind text NOT NULL CHECK (owner_kind IN ('workspace', 'actor')),
      owner_id uuid NOT NULL,
      storage_key text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX avatars_by_workspace ON avatars (workspace_id);
  `);
}
