import { type Knex, queryable, type Tx } from '@wms/kit/db';

/**
 * Transaction-scoped advisory locks of this schema (advisory locks are per database, so the schema's name keys them:
 * clusters that share a database do not wait for each other).
 */
export const LOCKS = { events: 1, delivery: 2, presence: 3 } as const;

export async function lock(db: Knex, name: keyof typeof LOCKS, tx: Tx): Promise<void> {
  await queryable(db, tx).raw('SELECT pg_advisory_xact_lock(hashtext(current_schema()), ?)', [LOCKS[name]]);
}
