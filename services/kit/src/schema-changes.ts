import { setTimeout as sleep } from 'node:timers/promises';
import type { Knex } from './db.ts';

// Steps for a migration that changes the keys of a table in use (`config: { transaction: false }`): each holds a lock
// that blocks the table's writes for a moment only, or none, and each can run again after a migration that failed
// halfway (docs/operations.md#upgrades). Concurrent index builds are db.ts's `buildIndexConcurrently`.

/** How long one step waits for its lock before it gives way to the traffic queued behind it, and tries again. */
const LOCK_TIMEOUT = '2s';
const LOCK_ATTEMPTS = 10;

/**
 * Runs statements in one transaction that waits at most 2 s for each lock (`SET LOCAL lock_timeout`): a step that
 * needs an ACCESS EXCLUSIVE lock queues behind a long transaction on the table, and while it waits, every statement
 * on the table queues behind it; giving up after 2 s, backing off and trying again bounds that stall.
 */
export async function briefLockStep(knex: Knex, statements: string[]): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await knex.transaction(async (tx) => {
        await tx.raw(`SET LOCAL lock_timeout = '${LOCK_TIMEOUT}'`);
        for (const statement of statements) await tx.raw(statement);
      });
      return;
    } catch (err) {
      // 55P03 lock_not_available
      if ((err as { code?: string }).code !== '55P03' || attempt === LOCK_ATTEMPTS) throw err;
      await sleep(250 * attempt);
    }
  }
}

interface ConstraintState {
  name: string;
  columns: string[];
  valid: boolean;
}

/** The named constraints of a table in the current schema, with their columns in key order. */
async function constraintsOf(knex: Knex, table: string, names: string[]): Promise<Map<string, ConstraintState>> {
  const { rows } = await knex.raw<{ rows: ConstraintState[] }>(
    `SELECT c.conname AS name, c.convalidated AS valid,
            ARRAY(SELECT a.attname::text FROM unnest(c.conkey) WITH ORDINALITY k(attnum, n)
                  JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum ORDER BY k.n) AS columns
       FROM pg_constraint c
      WHERE c.conrelid = to_regclass(?) AND c.conname = ANY (?)`,
    [table, names],
  );
  return new Map(rows.map((row) => [row.name, row]));
}

const sameColumns = (a: string[] | undefined, b: string[]): boolean => a?.join() === b.join();

export interface ForeignKey {
  table: string;
  /** The constraint's name, kept: the code tells violations apart by it. */
  name: string;
  columns: string[];
  references: string;
  referencedColumns: string[];
  /** What follows the key, as in `ON DELETE CASCADE` or `DEFERRABLE INITIALLY DEFERRED`. */
  options?: string;
}

/**
 * Replaces a foreign key by one over other columns (a composite key with `workspace_id`), under the same name, without
 * holding the table's writes: the new key is added NOT VALID (checked for new rows from then on), validated while
 * writes go on (SHARE UPDATE EXCLUSIVE), and swapped for the old one in a brief step.
 */
export async function replaceForeignKey(knex: Knex, key: ForeignKey): Promise<void> {
  const next = `${key.name}_next`;
  const found = await constraintsOf(knex, key.table, [key.name, next]);
  if (sameColumns(found.get(key.name)?.columns, key.columns) && !found.has(next)) return;
  if (!found.has(next)) {
    const columns = key.columns.map((c) => `"${c}"`).join(', ');
    const referenced = key.referencedColumns.map((c) => `"${c}"`).join(', ');
    await briefLockStep(knex, [
      `ALTER TABLE "${key.table}" ADD CONSTRAINT "${next}" FOREIGN KEY (${columns})
         REFERENCES "${key.references}" (${referenced}) ${key.options ?? ''} NOT VALID`,
    ]);
  }
  if (!found.get(next)?.valid) await knex.raw(`ALTER TABLE "${key.table}" VALIDATE CONSTRAINT "${next}"`);
  await briefLockStep(knex, [
    `ALTER TABLE "${key.table}" DROP CONSTRAINT IF EXISTS "${key.name}"`,
    `ALTER TABLE "${key.table}" RENAME CONSTRAINT "${next}" TO "${key.name}"`,
  ]);
}

/**
 * Builds, without holding the table's writes, the unique index that `replacePrimaryKey` makes the table's primary key:
 * first, when a foreign key moved by `replaceForeignKey` is to reference those columns.
 */
export async function preparePrimaryKey(knex: Knex, table: string, columns: string[]): Promise<void> {
  const name = `${table}_pkey`;
  const found = await constraintsOf(knex, table, [name]);
  if (sameColumns(found.get(name)?.columns, columns)) return;
  const index = `${table}_pkey_next`;
  const { rows } = await knex.raw<{ rows: unknown[] }>(
    `SELECT 1 FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
     WHERE c.relname = ? AND c.relnamespace = current_schema()::regnamespace AND NOT i.indisvalid`,
    [index],
  );
  // An invalid index, left by a build that failed, is built again.
  if (rows.length > 0) await knex.raw('DROP INDEX CONCURRENTLY ??', [index]);
  const key = columns.map((c) => `"${c}"`).join(', ');
  await knex.raw(`CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS ?? ON "${table}" (${key})`, [index]);
}

/**
 * Makes `columns` a table's primary key (`<table>_pkey`) in a brief step, from the unique index `preparePrimaryKey`
 * builds. Every foreign key that references the old key must have been moved first (`replaceForeignKey`).
 */
export async function replacePrimaryKey(knex: Knex, table: string, columns: string[]): Promise<void> {
  const name = `${table}_pkey`;
  const found = await constraintsOf(knex, table, [name]);
  if (sameColumns(found.get(name)?.columns, columns)) return;
  await preparePrimaryKey(knex, table, columns);
  await briefLockStep(knex, [
    `ALTER TABLE "${table}" DROP CONSTRAINT IF EXISTS "${name}",
       ADD CONSTRAINT "${name}" PRIMARY KEY USING INDEX "${table}_pkey_next"`,
  ]);
}
