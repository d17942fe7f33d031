import type { Knex } from '@wms/kit/db';

// When a sweep first missed an online actor: a provider of several nodes answers a sweep with what the nodes that
// answered in time hold, so the actor goes offline only when the next sweep misses it too. Nullable, so the previous
// release's inserts (which do not name it) still work; adding it rewrites no row.
export async function up(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE presence ADD COLUMN missing_since timestamptz');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE presence DROP COLUMN missing_since');
}
