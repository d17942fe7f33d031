import { setTimeout as sleep } from 'node:timers/promises';
import { buildIndexConcurrently, type Knex } from './db.ts';

// Steps for a migration that changes the keys of a table in use (`config: { transaction: false }`): each holds a lock
// that blocks the table's writes for a moment only, or none, and each can run again after a migration that failed
// halfway (docs/operations.md#upgrades). Concurrent index builds are db.ts's `buildIndexConcurrently`.

/** How long one step waits for its first lock before it gives way to the traffic queued behind it, and tries again. */
const LOCK_TIMEOUT = '2s';
const LOCK_ATTEMPTS = 10;
/** 55P03 lock_not_available (the first lock's timeout, a later one's NOWAIT); 40P01 deadlock_detected. */
const GIVE_WAY = new Set(['55P03', '40P01']);

/** A table a step locks, and how: the mode of the strongest lock its statements take on it. */
export type TableLock = [table: string, mode: 'SHARE ROW EXCLUSIVE' | 'ACCESS EXCLUSIVE'];

/**
 * Runs statements in one transaction that first takes `locks`: one waiting at most 2 s, every other NOWAIT. A step
 * that needs an ACCESS EXCLUSIVE lock queues behind a long transaction on the table, and while it waits, every
 * statement on the table queues behind it; giving up after 2 s, backing off and trying again bounds that stall. A step
 * never waits while it holds a lock, so it is never in a deadlock with a writer that takes the same tables in the
 * other order (a post claims its client_message_id, then inserts the message): such a writer, waiting first, would be
 * the one the deadlock check ends. Each try waits for the next table of `locks` in turn, the first try for the first:
 * a lock NOWAIT cannot take, such as autovacuum's (which gives way only to a lock request that waits), is waited for
 * on a later try. `locks` names every table the statements lock (a foreign key's both).
 */
export async function briefLockStep(knex: Knex, locks: TableLock[], statements: string[]): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const first = (attempt - 1) % Math.max(locks.length, 1);
    const order = [...locks.slice(first), ...locks.slice(0, first)];
    try {
      await knex.transaction(async (tx) => {
        await tx.raw(`SET LOCAL lock_timeout = '${LOCK_TIMEOUT}'`);
        for (const [i, [table, mode]] of order.entries())
          await tx.raw(`LOCK TABLE "${table}" IN ${mode} MODE${i === 0 ? '' : ' NOWAIT'}`);
        for (const statement of statements) await tx.raw(statement);
      });
      return;
    } catch (err) {
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
 * The locks of a step on a foreign key, the first the one the step waits for: the referenced table's, as writers that
 * insert a parent and then its children take theirs; the key's own table first when the key is deferred, whose writers
 * insert the child first (a post claims its client_message_id, then inserts the message). The step then finds the
 * other lock free, not held by a writer queued behind its own.
 */
function bothTables(key: ForeignKey, mode: TableLock[1]): TableLock[] {
  if (key.table === key.references) return [[key.table, mode]];
  const tables = /\bINITIALLY DEFERRED\b/i.test(key.options ?? '')
    ? [key.table, key.references]
    : [key.references, key.table];
  return tables.map((table) => [table, mode]);
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
    await briefLockStep(knex, bothTables(key, 'SHARE ROW EXCLUSIVE'), [
      `ALTER TABLE "${key.table}" ADD CONSTRAINT "${next}" FOREIGN KEY (${columns})
         REFERENCES "${key.references}" (${referenced}) ${key.options ?? ''} NOT VALID`,
    ]);
  }
  if (!found.get(next)?.valid) await knex.raw(`ALTER TABLE "${key.table}" VALIDATE CONSTRAINT "${next}"`);
  // Dropping a key locks the referenced table too.
  await briefLockStep(knex, bothTables(key, 'ACCESS EXCLUSIVE'), [
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
  await briefLockStep(
    knex,
    [[table, 'ACCESS EXCLUSIVE']],
    [
      `ALTER TABLE "${table}" DROP CONSTRAINT IF EXISTS "${name}",
       ADD CONSTRAINT "${name}" PRIMARY KEY USING INDEX "${table}_pkey_next"`,
    ],
  );
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
      await briefLockStep(
        knex,
        [[table, 'ACCESS EXCLUSIVE']],
        [`ALTER TABLE "${table}" ADD CONSTRAINT "${check}" CHECK ("${column}" IS NOT NULL) NOT VALID`],
      );
    }
    if (!state.valid) await knex.raw(`ALTER TABLE "${table}" VALIDATE CONSTRAINT "${check}"`);
  }
  await briefLockStep(
    knex,
    [[table, 'ACCESS EXCLUSIVE']],
    [
      `ALTER TABLE "${table}" ALTER COLUMN "${column}" SET NOT NULL`,
      `ALTER TABLE "${table}" DROP CONSTRAINT IF EXISTS "${check}"`,
    ],
  );
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

/**
 * Rebuilds index `name` as `definition`, which adds column `adds` to it (as a key or INCLUDE column), without holding
 * the table's writes: built concurrently as `<name>_next`, the old one dropped concurrently, the new one renamed (a
 * brief lock). Statements planned meanwhile use either. Each step can run again.
 */
export async function replaceIndex(knex: Knex, name: string, definition: string, adds: string): Promise<void> {
  const { rows } = await knex.raw<{ rows: Array<{ name: string; adds: boolean }> }>(
    `SELECT c.relname AS name, EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = ?) AS adds
       FROM pg_class c WHERE c.relnamespace = current_schema()::regnamespace AND c.relname IN (?, ?)`,
    [adds, name, `${name}_next`],
  );
  const old = rows.find((r) => r.name === name);
  if (old?.adds) return;
  const next = `${name}_next`;
  await buildIndexConcurrently(knex, next, definition);
  if (old) await knex.raw('DROP INDEX CONCURRENTLY IF EXISTS ??', [name]);
  await knex.raw('ALTER INDEX ?? RENAME TO ??', [next, name]);
}
