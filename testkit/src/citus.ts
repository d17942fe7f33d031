import type { Knex } from '@wms/kit/db';
import { COLOCATION_TABLE, DISTRIBUTION_COLUMN, type SchemaPlacement, type TablePlacement } from '@wms/kit/placement';

/** A key of a table: a constraint, or a unique index that backs none (partial and expression ones too). */
interface Key {
  table: string;
  name: string;
  kind: 'PRIMARY KEY' | 'UNIQUE' | 'FOREIGN KEY' | 'EXCLUDE' | 'UNIQUE INDEX';
  columns: string[];
  /** For a foreign key: the referenced table (`schema.table`) and its columns, position by position. */
  references?: { schema: string; table: string; columns: string[] };
  valid: boolean;
}

const KINDS: Record<string, Key['kind']> = { p: 'PRIMARY KEY', u: 'UNIQUE', f: 'FOREIGN KEY', x: 'EXCLUDE' };

/** Every key of a schema's tables, key columns in order; an expression column reads `(expr)`. */
async function keysOf(db: Knex, schema: string): Promise<Key[]> {
  const { rows } = await db.raw<{
    rows: Array<{
      table: string;
      name: string;
      kind: string;
      columns: string[];
      ref_schema: string | null;
      ref_table: string | null;
      ref_columns: string[] | null;
      valid: boolean;
    }>;
  }>(
    `SELECT t.relname AS table, c.conname AS name, c.contype AS kind, c.convalidated AS valid,
            ARRAY(SELECT a.attname::text FROM unnest(c.conkey) WITH ORDINALITY k(attnum, n)
                  JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum ORDER BY k.n) AS columns,
            rn.nspname AS ref_schema, r.relname AS ref_table,
            ARRAY(SELECT a.attname::text FROM unnest(c.confkey) WITH ORDINALITY k(attnum, n)
                  JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.attnum ORDER BY k.n) AS ref_columns
       FROM pg_constraint c
       JOIN pg_class t ON t.oid = c.conrelid
       JOIN pg_namespace n ON n.oid = t.relnamespace
       LEFT JOIN pg_class r ON r.oid = c.confrelid
       LEFT JOIN pg_namespace rn ON rn.oid = r.relnamespace
      WHERE n.nspname = ? AND c.contype IN ('p', 'u', 'f', 'x')
     UNION ALL
     SELECT t.relname, ic.relname, 'i', i.indisvalid,
            ARRAY(SELECT CASE WHEN k.attnum = 0 THEN '(expr)' ELSE a.attname::text END
                    FROM unnest(i.indkey::int2[]) WITH ORDINALITY k(attnum, n)
                    LEFT JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum
                   WHERE k.n <= i.indnkeyatts ORDER BY k.n),
            NULL, NULL, NULL
       FROM pg_index i
       JOIN pg_class ic ON ic.oid = i.indexrelid
       JOIN pg_class t ON t.oid = i.indrelid
       JOIN pg_namespace n ON n.oid = t.relnamespace
      WHERE n.nspname = ? AND i.indisunique
        AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid AND c.contype IN ('p', 'u', 'x'))`,
    [schema, schema],
  );
  return rows.map((row) => ({
    table: row.table,
    name: row.name,
    kind: row.kind === 'i' ? 'UNIQUE INDEX' : KINDS[row.kind]!,
    columns: row.columns,
    references: row.ref_table
      ? { schema: row.ref_schema!, table: row.ref_table, columns: row.ref_columns! }
      : undefined,
    valid: row.valid,
  }));
}

/** The schema's tables, each with whether it has a non-null `workspace_id` (null: no such column). */
async function tablesOf(db: Knex, schema: string): Promise<Map<string, boolean | null>> {
  const { rows } = await db.raw<{ rows: Array<{ table: string; not_null: boolean | null }> }>(
    `SELECT t.relname AS table, a.attnotnull AS not_null
       FROM pg_class t
       JOIN pg_namespace n ON n.oid = t.relnamespace
       LEFT JOIN pg_attribute a ON a.attrelid = t.oid AND a.attname = ? AND NOT a.attisdropped
      WHERE n.nspname = ? AND t.relkind IN ('r', 'p') AND t.relname NOT LIKE 'knex\\_migrations%'`,
    [DISTRIBUTION_COLUMN, schema],
  );
  return new Map(rows.map((row) => [row.table, row.not_null]));
}

/** The triggers of a schema's tables, as `<table> trigger <name>`. */
async function triggersOf(db: Knex, schema: string): Promise<Array<{ table: string; name: string }>> {
  const { rows } = await db.raw<{ rows: Array<{ table: string; name: string }> }>(
    `SELECT t.relname AS table, g.tgname AS name FROM pg_trigger g
       JOIN pg_class t ON t.oid = g.tgrelid JOIN pg_namespace n ON n.oid = t.relnamespace
      WHERE n.nspname = ? AND NOT g.tgisinternal`,
    [schema],
  );
  return rows;
}

/**
 * Sequences that are not bigint: a distributed table takes values only from bigint ones on the workers. knex's own
 * bookkeeping is left out: only migrations write it, through the coordinator.
 */
async function narrowSequences(db: Knex, schema: string): Promise<string[]> {
  const { rows } = await db.raw<{ rows: Array<{ name: string; type: string }> }>(
    `SELECT s.sequencename AS name, s.data_type::text AS type FROM pg_sequences s
      WHERE s.schemaname = ? AND s.data_type <> 'bigint'::regtype AND s.sequencename NOT LIKE 'knex\\_migrations%'`,
    [schema],
  );
  return rows.map((row) => `sequence ${row.name}: ${row.type}, not bigint`);
}

/** A key as the violations name it; a referenced table outside the schema with its schema. */
function describe(key: Key, schema: string): string {
  const target = key.references && (key.references.schema === schema ? '' : `${key.references.schema}.`);
  return (
    `${key.table} ${key.name} ${key.kind} (${key.columns.join(', ')})` +
    (key.references ? ` → ${target}${key.references.table} (${key.references.columns.join(', ')})` : '')
  );
}

/** What Citus refuses about one key of a table placed `placement`, given where every table of the schema goes. */
function keyViolations(key: Key, schema: string, placement: (table: string) => TablePlacement | undefined): string[] {
  const found: string[] = [];
  const describeKey = (k: Key) => describe(k, schema);
  if (!key.valid) found.push(`${describeKey(key)}: not valid`);
  const own = placement(key.table);
  const target = key.references && (key.references.schema === schema ? placement(key.references.table) : undefined);
  if (key.references && !target) found.push(`${describeKey(key)}: references a table outside the schema's map`);
  if (own === 'reference' && target === 'distributed') found.push(`${describeKey(key)}: reference → distributed`);
  if (own !== 'distributed') return found;
  if (target === 'local') found.push(`${describeKey(key)}: distributed → local`);
  if (key.kind === 'FOREIGN KEY') {
    const at = key.columns.indexOf(DISTRIBUTION_COLUMN);
    if (target === 'distributed' && (at < 0 || key.references!.columns[at] !== DISTRIBUTION_COLUMN))
      found.push(`${describeKey(key)}: workspace_id not matched`);
  } else if (key.columns[0] !== DISTRIBUTION_COLUMN) {
    found.push(`${describeKey(key)}: workspace_id does not lead`);
  }
  return found;
}

/**
 * What a schema's catalog does that Citus would refuse, given where its placement map puts each table
 * (kit placement.ts), one line each, sorted. For a schema distributed by workspace: a table missing from the map (or
 * a map entry with no table); a distributed table without a non-null `workspace_id`, or a primary key, unique
 * constraint or unique index of it that `workspace_id` does not lead, or a foreign key to another distributed table
 * that does not match `workspace_id` to `workspace_id`, or to a local table; a reference table's foreign key to a
 * distributed one; a trigger on a distributed or reference table (Citus runs none on shards unless told to, unsafely).
 * For a schema distributed whole: a foreign key out of it. For both: a constraint or unique index left not valid, and
 * a sequence that is not bigint. Stricter than Citus, which wants `workspace_id` in every unique key, not first. What the map keeps until the next release is left out (and named
 * if it is not there).
 */
export async function citusViolations(db: Knex, map: SchemaPlacement): Promise<string[]> {
  const { schema } = map;
  const [tables, keys, sequences, triggers] = await Promise.all([
    tablesOf(db, schema),
    keysOf(db, schema),
    narrowSequences(db, schema),
    triggersOf(db, schema),
  ]);
  const placement = (table: string): TablePlacement | undefined =>
    map.distribution === 'whole-schema' ? (tables.has(table) ? 'local' : undefined) : map.tables[table];
  const kept = new Set(map.distribution === 'by-workspace' ? map.untilNextRelease : []);
  const named = new Set([...keys, ...triggers].map((object) => object.name));
  const found = [
    ...sequences,
    ...keys.filter((key) => !kept.has(key.name)).flatMap((key) => keyViolations(key, schema, placement)),
    ...triggers
      .filter((trigger) => !kept.has(trigger.name) && ['distributed', 'reference'].includes(placement(trigger.table)!))
      .map((trigger) => `${trigger.table} trigger ${trigger.name}: not run on shards`),
    ...[...kept].filter((name) => !named.has(name)).map((name) => `${name}: kept, not found`),
  ];
  if (map.distribution === 'by-workspace') {
    for (const table of tables.keys()) if (!map.tables[table]) found.push(`${table}: not in the placement map`);
    for (const table of Object.keys(map.tables)) if (!tables.has(table)) found.push(`${table}: no such table`);
    for (const [table, notNull] of tables) {
      if (map.tables[table] !== 'distributed' || notNull) continue;
      found.push(notNull === null ? `${table}: no workspace_id` : `${table}: workspace_id nullable`);
    }
  }
  return found.sort();
}

/**
 * What an operator runs on Citus to place these schemas as their maps say, in an order Citus accepts: reference tables
 * first (distributed tables have keys into them), then the co-location table, then every other distributed table in
 * its map's order (a table after those its keys reference), then the schemas distributed whole. Local tables stay on
 * the coordinator without a command.
 */
export function citusCommands(placements: readonly SchemaPlacement[]): string[] {
  const tables = (kind: TablePlacement) =>
    placements.flatMap((map) =>
      map.distribution === 'by-workspace'
        ? Object.entries(map.tables)
            .filter(([, placement]) => placement === kind)
            .map(([table]) => `${map.schema}.${table}`)
        : [],
    );
  const distributed = tables('distributed');
  if (!distributed.includes(COLOCATION_TABLE)) throw new Error(`${COLOCATION_TABLE} is not distributed`);
  return [
    ...tables('reference').map((table) => `SELECT create_reference_table('${table}');`),
    `SELECT create_distributed_table('${COLOCATION_TABLE}', '${DISTRIBUTION_COLUMN}');`,
    ...distributed
      .filter((table) => table !== COLOCATION_TABLE)
      .map(
        (table) =>
          `SELECT create_distributed_table('${table}', '${DISTRIBUTION_COLUMN}', colocate_with => '${COLOCATION_TABLE}');`,
      ),
    ...placements
      .filter((map) => map.distribution === 'whole-schema')
      .map((map) => `SELECT citus_schema_distribute('${map.schema}');`),
  ];
}
