import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';

let pool: pg.Pool | undefined;

/** Runs SQL against the test cluster's database: only to move time forward or inject a fault, never to make data. */
export async function sql<T extends pg.QueryResultRow = pg.QueryResultRow>(
  text: string,
  params: unknown[] = [],
): Promise<T[]> {
  pool ??= new pg.Pool({ connectionString: inject('databaseUrl'), max: 2 });
  return (await pool.query<T>(text, params)).rows;
}

/** Ages every mailed link of an address past its expiry, as if its lifetime had gone by. */
export const expireLinks = (email: string) =>
  sql(`UPDATE identity.email_tokens SET expires_at = now() - interval '1 second' WHERE email = $1`, [email]);

/** Ages every code of an account past its expiry. */
export const expireCodes = (email: string) =>
  sql(
    `UPDATE identity.email_codes SET expires_at = now() - interval '1 second' WHERE user_id = (SELECT id FROM identity.users WHERE email = $1)`,
    [email],
  );

/** Lifetime in minutes of the newest link of a kind for an address. */
export async function linkLifetimeMinutes(email: string, kind: string): Promise<number> {
  const [row] = await sql<{ minutes: number }>(
    `SELECT extract(epoch FROM expires_at - created_at) / 60 AS minutes FROM identity.email_tokens WHERE email = $1 AND kind = $2 ORDER BY created_at DESC LIMIT 1`,
    [email, kind],
  );
  return Math.round(Number(row?.minutes));
}

/**
 * Makes the database refuse inserts into (or deletes from) `table` of rows whose text contains `marker` (a unique
 * string, so other tests' rows pass), the way a failing statement would, or with `atCommit` the transaction's COMMIT
 * (a deferred constraint trigger), after everything else in it ran; returns the undo.
 */
export async function failRowsContaining(
  table: string,
  operation: 'INSERT' | 'DELETE',
  marker: string,
  { atCommit = false }: { atCommit?: boolean } = {},
): Promise<() => Promise<void>> {
  if (!/^[\w-]+$/.test(marker)) throw new Error(`marker ${marker} must be a plain word`);
  const name = `wms_test_fail_${randomUUID().replaceAll('-', '')}`;
  const row = operation === 'INSERT' ? 'NEW' : 'OLD';
  await sql(
    `CREATE FUNCTION public.${name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'injected failure'; END $$`,
  );
  await sql(
    atCommit
      ? `CREATE CONSTRAINT TRIGGER ${name} AFTER ${operation} ON ${table} DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (${row}::text LIKE '%${marker}%') EXECUTE FUNCTION public.${name}()`
      : `CREATE TRIGGER ${name} BEFORE ${operation} ON ${table} FOR EACH ROW WHEN (${row}::text LIKE '%${marker}%') EXECUTE FUNCTION public.${name}()`,
  );
  return async () => {
    await sql(`DROP TRIGGER ${name} ON ${table}`);
    await sql(`DROP FUNCTION public.${name}()`);
  };
}
