import type { Knex } from '@wms/kit/db';

// Integration credentials (contract §11): tokens an owner or admin makes for an agent, either for posting into one
// conversation or for the agent's use of the member API in the workspace. Only each secret's SHA-256 is kept (unique:
// how a request's token is found), with its first characters for people to recognise it. A token goes with its agent
// (the purge of a deleted workspace deletes the actors), and a revoked one stays listed.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE tokens (
      id uuid PRIMARY KEY,
      workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
      kind text NOT NULL CHECK (kind IN ('conversation', 'workspace')),
      conversation_id uuid,
      actor_id uuid NOT NULL REFERENCES actors (id) ON DELETE CASCADE,
      name text NOT NULL,
      token_prefix text NOT NULL,
      secret_sha256 bytea NOT NULL CONSTRAINT tokens_secret_key UNIQUE,
      created_by_actor_id uuid NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      last_used_at timestamptz,
      revoked_at timestamptz,
      CHECK ((kind = 'conversation') = (conversation_id IS NOT NULL))
    );
    CREATE INDEX tokens_by_workspace ON tokens (workspace_id, created_at DESC, id DESC);
    CREATE INDEX tokens_by_conversation ON tokens (conversation_id, created_at DESC, id DESC) WHERE conversation_id IS NOT NULL;
    CREATE INDEX tokens_by_actor ON tokens (actor_id);
  `);
}
