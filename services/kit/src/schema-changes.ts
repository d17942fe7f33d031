import { setTimeout as sleep } from 'node:timers/promises';
import { buildIndexConcurrently, type Knex } from './db.ts';

// Steps for a migration that changes the keys of a table in use (`config: { transaction: false }`): each holds a lock
// that blocks the table's writes for a moment only, or none, and each can run again after a migration that failed
// halfway (docs/operations.md#upgrades). Concurrent index builds are db.ts's `buildIndexConcurrently`.

/** How long one step waits for its lock before it gives way to the traffic queued behind it, and tries again. */
const LOCK_TIMEOUT = '2s';
const LOCK_ATTEMPTS = 10;
const GIVE_WAY = new Set(['55P03', '40P01']);

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
      // 55P03 lock_not_available; 40P01 deadlock_detected: a step that takes two tables' locks can meet a transaction
      // that takes them in the other order, and is the one the deadlock check ends (it waited first).
      if (!GIVE_WAY.has((err as { code?: string }).code ?? '') || attempt === LOCK_ATTEMPTS) throw err;
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
      `LOCK TABLE "${key.references}" IN SHARE ROW EXCLUSIVE MODE`,
      `ALTER TABLE "${key.table}" ADD CONSTRAINT "${next}" FOREIGN KEY (${columns})
         REFERENCES "${key.references}" (${referenced}) ${key.options ?? ''} NOT VALID`,
    ]);
  }
  if (!found.get(next)?.valid) await knex.raw(`ALTER TABLE "${key.table}" VALIDATE CONSTRAINT "${next}"`);
  // Dropping a key locks the referenced table too: it is locked first, as writers that insert a parent and then its
  // children take theirs, so that the step waits holding nothing rather than meet them in a deadlock.
  await briefLockStep(knex, [
    `LOCK TABLE "${key.references}" IN ACCESS EXCLUSIVE MODE`,
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
  const key = columns.map((c) => `"${c}"`).join(', ');
  await buildIndexConcurrently(knex, `${table}_pkey_next`, `ON "${table}" (${key})`, { unique: true });
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

/**
 * Makes a column NOT NULL without reading the table under a lock that holds its writes: a CHECK (column IS NOT NULL)
 * added NOT VALID, validated while writes go on, lets SET NOT NULL skip its scan in a brief step that drops the check.
 * Every row must have a value by then, and every new one get one (a default or a trigger).
 */
export async function setNotNull(knex: Knex, table: string, column: string): Promise<void> {
  const check = `${table}_${column}_not_null_check`;
  const { rows } = await knex.raw<{ rows: Array<{ not_null: boolean; valid: boolean | null }> }>(
    `SELECT a.attnotnull AS not_null, c.convalidated AS valid FROM pg_attribute a
       LEFT JOIN pg_constraint c ON c.conrelid = a.attrelid AND c.conname = ?
      WHERE a.attrelid = to_regclass(?) AND a.attname = ? AND NOT a.attisdropped`,
    [check, table, column],
  );
  const state = rows[0];
  if (!state) throw new Error(`setNotNull: no column ${table}.${column}`);
  if (state.not_null && state.valid === null) return;
  if (!state.not_null) {
    if (state.valid === null) {
      await briefLockStep(knex, [
        `ALTER TABLE "${table}" ADD CONSTRAINT "${check}" CHECK ("${column}" IS NOT NULL) NOT VALID`,
      ]);
    }
    if (!state.valid) await knex.raw(`ALTER TABLE "${table}" VALIDATE CONSTRAINT "${check}"`);
  }
  await briefLockStep(knex, [
    `ALTER TABLE "${table}" ALTER COLUMN "${column}" SET NOT NULL`,
    `ALTER TABLE "${table}" DROP CONSTRAINT IF EXISTS "${check}"`,
  ]);
}

export interface ParentFill {
  table: string;
  /** The columns of a unique key of `table`: rows are walked in its order, a batch at a time. */
  key: string[];
  column: string;
  /** The parent table, whose `column` the row takes. */
  parent: string;
  /** How a row `t` finds its parent `p`, as in `p.id = t.message_id`. */
  on: string;
}

/** Rows filled per statement by `fillFromParent`. */
const FILL_BATCH = 1000;

/**
 * Fills in a column left empty (null) with its parent's value, a batch of rows per statement, each batch committed on
 * its own (call it from a migration with `config: { transaction: false }`): a batch's rows are locked only while it is
 * written, and writes go on. A run that stopped halfway starts again from the first row still empty.
 */
export async function fillFromParent(knex: Knex, fill: ParentFill): Promise<void> {
  const key = fill.key.map((c) => `"${c}"`).join(', ');
  const keyOf = (alias: string) => fill.key.map((c) => `${alias}."${c}"`).join(', ');
  const params = fill.key.map(() => '?').join(', ');
  for (let after: Knex.Value[] | undefined; ;) {
    const { rows } = await knex.raw<{ rows: Array<Record<string, Knex.Value>> }>(
      `WITH batch AS MATERIALIZED (
         SELECT ${key} FROM "${fill.table}"
          WHERE "${fill.column}" IS NULL ${after ? `AND (${key}) > (${params})` : ''}
          ORDER BY ${key} LIMIT ${FILL_BATCH}
       ),
       filled AS (
         UPDATE "${fill.table}" t SET "${fill.column}" = p."${fill.column}" FROM batch b, "${fill.parent}" p
          WHERE (${keyOf('t')}) = (${keyOf('b')}) AND t."${fill.column}" IS NULL AND ${fill.on}
       )
       SELECT ${key} FROM batch ORDER BY ${fill.key.map((c) => `"${c}" DESC`).join(', ')} LIMIT 1`,
      after ?? [],
    );
    if (rows.length === 0) return;
    after = fill.key.map((c) => rows[0]![c]!);
  }
}
