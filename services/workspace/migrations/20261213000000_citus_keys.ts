import { buildIndexConcurrently, type Knex } from '@wms/kit/db';
import {
  briefLockStep,
  preparePrimaryKey,
  replaceForeignKey,
  replacePrimaryKey,
  type TableLock,
} from '@wms/kit/schema-changes';

// Keys Citus can distribute by workspace (placement.ts): `workspace_id` leads the primary key of actors, workspace_users
// and avatars, and the foreign key from a member to its actor; tokens and invitations, reference tables, lose their
// keys into actors and members. On a live database: indexes built concurrently, keys validated while writes go on,
// each swap a brief lock (kit schema-changes.ts); each step can run again.
export const config = { transaction: false };

const TABLES = ['actors', 'workspace_users', 'avatars'];

export async function up(knex: Knex): Promise<void> {
  // The previous release reads these by id alone; the next release drops them.
  for (const table of TABLES) await buildIndexConcurrently(knex, `${table}_id_idx`, `ON ${table} (id)`);
  // Set when an invitation is accepted, and never read through the key.
  await briefLockStep(
    knex,
    [
      ['workspace_users', 'ACCESS EXCLUSIVE'],
      ['invitations', 'ACCESS EXCLUSIVE'],
    ],
    ['ALTER TABLE invitations DROP CONSTRAINT IF EXISTS invitations_workspace_user_id_fkey'],
  );
  // The previous release's purge of a workspace counts on an agent's tokens going with it; this release deletes them
  // itself. A trigger does it for the previous release, before the key goes (the next release drops it).
  const actorsAndTokens: TableLock[] = [
    ['actors', 'ACCESS EXCLUSIVE'],
    ['tokens', 'ACCESS EXCLUSIVE'],
  ];
  await briefLockStep(knex, actorsAndTokens, [
    `CREATE OR REPLACE FUNCTION actors_deleted_take_tokens() RETURNS trigger LANGUAGE plpgsql
     SET search_path FROM CURRENT AS $$
     BEGIN
       DELETE FROM tokens t USING gone WHERE t.actor_id = gone.id;
       RETURN NULL;
     END $$`,
    'DROP TRIGGER IF EXISTS actors_deleted_take_tokens ON actors',
    `CREATE TRIGGER actors_deleted_take_tokens AFTER DELETE ON actors REFERENCING OLD TABLE AS gone
       FOR EACH STATEMENT EXECUTE FUNCTION actors_deleted_take_tokens()`,
    'ALTER TABLE tokens DROP CONSTRAINT IF EXISTS tokens_actor_id_fkey',
  ]);
  await preparePrimaryKey(knex, 'actors', ['workspace_id', 'id']);
  await replaceForeignKey(knex, {
    table: 'workspace_users',
    name: 'workspace_users_actor_id_fkey',
    columns: ['workspace_id', 'actor_id'],
    references: 'actors',
    referencedColumns: ['workspace_id', 'id'],
  });
  for (const table of TABLES) await replacePrimaryKey(knex, table, ['workspace_id', 'id']);
}
