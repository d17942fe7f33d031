import pg from 'pg';
import { inject } from 'vitest';

let pool: pg.Pool | undefined;

/** Runs SQL against the test cluster's database: only to move time forward, never to make data. */
export async function sql<T extends pg.QueryResultRow = pg.QueryResultRow>(text: string, params: unknown[] = []): Promise<T[]> {
  pool ??= new pg.Pool({ connectionString: inject('databaseUrl'), max: 2 });
  return (await pool.query<T>(text, params)).rows;
}

/** Ages every mailed link of an address past its expiry, as if its lifetime had gone by. */
export const expireLinks = (email: string) =>
  sql(`UPDATE identity.email_tokens SET expires_at = now() - interval '1 second' WHERE email = $1`, [email]);

/** Ages every code of an account past its expiry. */
export const expireCodes = (email: string) =>
  sql(`UPDATE identity.email_codes SET expires_at = now() - interval '1 second' WHERE user_id = (SELECT id FROM identity.users WHERE email = $1)`, [email]);

/** Lifetime in minutes of the newest link of a kind for an address. */
export async function linkLifetimeMinutes(email: string, kind: string): Promise<number> {
  const [row] = await sql<{ minutes: number }>(
    `SELECT extract(epoch FROM expires_at - created_at) / 60 AS minutes FROM identity.email_tokens WHERE email = $1 AND kind = $2 ORDER BY created_at DESC LIMIT 1`,
    [email, kind],
  );
  return Math.round(Number(row?.minutes));
}
