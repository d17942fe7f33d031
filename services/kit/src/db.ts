import { createHash } from 'node:crypto';
import knexFactory, { type Knex } from 'knex';
import type { Logger } from 'pino';
import { recordStatements } from './statement-log.ts';
import type { Transact, Tx } from './transactions.ts';

export type { Knex } from 'knex';
export type { Transact, Tx } from './transactions.ts';

/** One migration of a service's schema. */
export interface Migration {
  name: string;
  up: (knex: Knex) => Promise<void>;
  down?: (knex: Knex) => Promise<void>;
  /**
   * `transaction: false` runs it outside a transaction, statement by statement: for `CREATE INDEX CONCURRENTLY`,
   * which builds an index on a large table without holding its writes. Such a migration must be safe to run again
   * after failing halfway (`IF NOT EXISTS`, and an invalid index left by a failed build dropped first).
   */
  config?: { transaction: boolean };
}

export interface DbOptions {
  url: string;
  schema: string;
  log: Logger;
  poolMax?: number;
  statementTimeoutMs?: number;
  /** Test-only: a directory in which to record each distinct statement the pool sends (statement-log.ts). */
  statementLog?: string;
}

/** A pooled knex instance confined to one service's schema, with bounded connects and statements. */
export function createDb({ url, schema, log, poolMax = 10, statementTimeoutMs = 5000, statementLog }: DbOptions): Knex {
  const knex = knexFactory({
    client: 'pg',
    connection: {
      connectionString: url,
      connectionTimeoutMillis: 5000,
      statement_timeout: statementTimeoutMs,
      application_name: `wms-${schema}`,
      // No JIT compilation: it pays off for long analytic queries, and costs a short statement whose estimate crosses
      // jit_above_cost (a sidebar's counts over a large table) some 20 ms of compiling per execution.
      options: '-c jit=off',
    },
    searchPath: [schema],
    pool: {
      min: 0,
      max: poolMax,
      afterCreate(
        conn: { on(event: 'error', fn: (err: Error) => void): void },
        done: (err: Error | null, conn: unknown) => void,
      ) {
        conn.on('error', (err) => log.warn({ err }, 'idle database connection failed'));
        done(null, conn);
      },
    },
    acquireConnectionTimeout: 5000,
    // knex writes its warnings to the console; they go to the process's log instead. A failed connect reaches the
    // caller as an error anyway, and an outage is told once by the dependency monitor (health.ts), so knex's line
    // per failed acquire is debug.
    log: {
      warn: (message: unknown) =>
        /^(Acquire connection error|Connection Error)/.test(String(message))
          ? log.debug({ knex: String(message) }, 'database connection failed')
          : log.warn({ knex: message }, 'knex warning'),
      error: (message: unknown) => log.error({ knex: message }, 'knex error'),
      deprecate: (method: string, alternative: string) => log.warn({ method, alternative }, 'knex deprecation'),
      debug: (message: unknown) => log.debug({ knex: message }, 'knex debug'),
    },
  });
  if (statementLog) recordStatements(knex, schema, statementLog);
  return knex;
}

/**
 * For a migration with `config: { transaction: false }`: builds an index without holding the table's writes
 * (`CREATE INDEX CONCURRENTLY`), once. An invalid index that an interrupted build left behind is dropped and built
 * again, so the migration can run again after failing halfway. `definition` follows the table name, as in
 * `ON messages (conversation_id, created_at)` or `ON messages USING gin (search)`.
 */
export async function buildIndexConcurrently(
  knex: Knex,
  name: string,
  definition: string,
  { unique = false }: { unique?: boolean } = {},
): Promise<void> {
  const { rows } = await knex.raw<{ rows: unknown[] }>(
    `SELECT 1 FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
     WHERE c.relname = ? AND c.relnamespace = current_schema()::regnamespace AND NOT i.indisvalid`,
    [name],
  );
  if (rows.length > 0) await knex.raw('DROP INDEX CONCURRENTLY ??', [name]);
  await knex.raw(`CREATE ${unique ? 'UNIQUE ' : ''}INDEX CONCURRENTLY IF NOT EXISTS ?? ${definition}`, [name]);
}

/**
 * For a migration: makes sure the database has a Postgres extension the service's schema uses (`pg_trgm`), in
 * `public`, where every service names its objects the same way (`public.gin_trgm_ops`): an extension exists once per
 * database, so the services that need one take turns creating it. When the migration's role may not create it, the
 * error says what a database owner runs instead.
 */
export async function requireExtension(knex: Knex, name: 'pg_trgm'): Promise<void> {
  try {
    await knex.transaction(async (tx) => {
      await tx.raw('SELECT pg_advisory_xact_lock(hashtext(?))', [`wms:extension:${name}`]);
      await tx.raw('CREATE EXTENSION IF NOT EXISTS ?? WITH SCHEMA public', [name]);
    });
  } catch (err) {
    // 42501 insufficient_privilege
    if ((err as { code?: string }).code !== '42501') throw err;
    throw new Error(
      `the extension ${name} is missing and this role may not create it: run "CREATE EXTENSION ${name} WITH SCHEMA public" as the database's owner (${(err as Error).message})`,
      { cause: err },
    );
  }
}

/** A LIKE pattern's body that matches `text` literally (`%`, `_` and the escape character `\` escaped). */
export const likeLiteral = (text: string): string => text.replace(/[\\%_]/g, '\\$&');

/**
 * Runs a hot route's statement as a prepared statement of its connection, named by its text: Postgres parses it once
 * per connection and, after five executions, keeps a generic plan when that is estimated to cost no more than a plan
 * made for the values, so later executions skip parsing and planning (a third of the Postgres CPU of a post or a page;
 * docs/benchmark.md). Only for statements whose text comes from a small fixed set (no list of values spelled out in
 * it, a LIMIT written with `sqlInteger` from a bounded range) and whose result names its columns: each connection keeps
 * every text it was given, and a prepared statement whose result columns change under it (a migration altering a
 * column it returns) fails with "cached plan must not change result type". A parameter's value that the planner's
 * estimate depends on (a LIMIT) makes the generic plan look dear, so it stays a custom one: write it into the text.
 */
export function prepared<T>(statement: Knex.Raw<T>): Knex.Raw<T> {
  const name = `wms_${createHash('sha1').update(statement.toSQL().sql).digest('hex').slice(0, 32)}`;
  return statement.options({ name });
}

/**
 * Runs an upsert that names no unique key until it writes, at most `tries` times. Such a statement updates the row, or
 * inserts it with `ON CONFLICT DO NOTHING` when its snapshot holds none; it writes nothing (`write` answers undefined)
 * only when a concurrent first insert of the same row committed meanwhile, and its next run, a new statement with a new
 * snapshot (READ COMMITTED), updates that row. Named keys change under a rolling upgrade: an upsert of the previous
 * release must keep working while this one's migration swaps the key (docs/architecture.md#beyond-one-machine).
 */
export async function untilWritten<T>(write: () => Promise<T | undefined>, tries = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const written = await write();
    if (written !== undefined) return written;
    if (attempt >= tries) throw new Error(`an upsert wrote nothing in ${tries} tries`);
  }
}

/**
 * The CTEs `updated`, `inserted` and `written` of an upsert that names no unique key (run it with `untilWritten`):
 * `update` the row, else `insert` it, an INSERT … SELECT without a WHERE, to which `WHERE NOT EXISTS (SELECT 1 FROM
 * updated)` and `ON CONFLICT DO NOTHING` are added; `written` is the row as either left it, with the columns `returning`.
 * With no conflict target every unique index is an arbiter, so it holds beside a key that a migration is swapping.
 */
export const keylessUpsert = (u: { update: string; insert: string; returning: string }): string => `
  updated AS (${u.update} RETURNING ${u.returning}),
  inserted AS (${u.insert} WHERE NOT EXISTS (SELECT 1 FROM updated) ON CONFLICT DO NOTHING RETURNING ${u.returning}),
  written AS (SELECT * FROM updated UNION ALL SELECT * FROM inserted)`;

/** `n` as SQL text, for a bounded integer written into a prepared statement (its LIMIT); anything else throws. */
export function sqlInteger(n: number): string {
  if (!Number.isSafeInteger(n)) throw new TypeError(`not an integer: ${n}`);
  return String(n);
}

/** Creates the schema if needed and applies the service's migrations (knex keeps a lock, so concurrent runs are safe). */
export async function migrate(knex: Knex, schema: string, migrations: Migration[]): Promise<string[]> {
  await knex.raw('CREATE SCHEMA IF NOT EXISTS ??', [schema]);
  const byName = new Map(migrations.map((m) => [m.name, m]));
  const [, applied] = (await knex.migrate.latest({
    schemaName: schema,
    tableName: 'knex_migrations',
    migrationSource: {
      getMigrations: async () => migrations.map((m) => m.name),
      getMigrationName: (name: string) => name,
      getMigration: async (name: string) => {
        const m = byName.get(name);
        if (!m) throw new Error(`unknown migration ${name}`);
        return { up: m.up, down: m.down ?? (async () => {}), ...(m.config ? { config: m.config } : {}) };
      },
    },
  })) as [number, string[]];
  return applied;
}

const isViolation =
  (code: string) =>
  (err: unknown, constraint?: string): boolean => {
    const e = err as { code?: string; constraint?: string } | null | undefined;
    return e?.code === code && (constraint === undefined || e.constraint === constraint);
  };

/** True when a driver error is a unique violation (Postgres 23505), optionally of one constraint. */
export const isUniqueViolation = isViolation('23505');

/** True when a driver error is a foreign-key violation (Postgres 23503: the referenced row is missing), optionally of one constraint. */
export const isForeignKeyViolation = isViolation('23503');

/**
 * The `migrate` role of a service: applies its migrations, logs what ran, runs `then` (what the schema needs beyond
 * its migrations, such as a replication slot, which no transaction may create), and closes the pool.
 */
export async function runMigrationRole(
  knex: Knex,
  schema: string,
  migrations: Migration[],
  log: Logger,
  then?: (knex: Knex) => Promise<unknown>,
): Promise<void> {
  try {
    const applied = await migrate(knex, schema, migrations);
    log.info({ applied }, 'migrations applied');
    await then?.(knex);
  } finally {
    await knex.destroy();
  }
}

/** What kit calls of knex's client (typed `any` by knex): pooled connections, and raw ones outside the pool. */
export interface KnexClient {
  acquireConnection(): Promise<unknown>;
  releaseConnection(conn: unknown): Promise<void>;
  acquireRawConnection(): Promise<unknown>;
  destroyRawConnection(conn: unknown): Promise<void>;
}

/** knex's client, typed for what kit calls of it. Inside kit only (`transactor`, the outbox relay). */
export const knexClient = (knex: Knex): KnexClient => knex.client as KnexClient;

/** How long a transaction whose work failed waits for its ROLLBACK before it gives the connection up (knex's bound). */
const ROLLBACK_TIMEOUT_MS = 5000;

/** Runs one transaction-control statement on the transaction's connection (counted like any other statement). */
const control = (knex: Knex, conn: unknown, sql: 'BEGIN;' | 'COMMIT;' | 'ROLLBACK;') => knex.raw(sql).connection(conn);

/**
 * A transaction of `transactor`: one pooled connection between its BEGIN and its COMMIT or ROLLBACK. Its statements
 * are the pool's builders bound to that connection (`.connection`), so a transaction costs no knex instance of its
 * own (`knex.transaction` makes one per transaction, a seventh of the messaging service's CPU).
 */
class PooledTx {
  open = true;
  private bound: Queryable | undefined;

  constructor(
    private readonly knex: Knex,
    private readonly conn: unknown,
  ) {}

  /** The queryable of this transaction: `(table)`, `raw` and `fn`, each statement refused once the transaction ended. */
  queryable(): Queryable {
    if (this.bound) return this.bound;
    const { knex, conn } = this;
    // A statement issued after the end would run outside it on a connection the pool has lent to someone else.
    const refuseLate = () => {
      if (!this.open) throw new Error('statement after its transaction ended');
    };
    const bind = <B extends { connection(c: unknown): B; on(event: 'query', fn: () => void): B }>(builder: B): B =>
      builder.connection(conn).on('query', refuseLate);
    const q = Object.assign((table: string) => bind(knex(table)), {
      raw: (sql: string, bindings?: readonly Knex.RawBinding[] | Knex.ValueDict) =>
        bind(bindings === undefined ? knex.raw(sql) : knex.raw(sql, bindings)),
      fn: knex.fn,
    });
    this.bound = q as unknown as Queryable;
    return this.bound;
  }
}

/**
 * The transaction runner services receive: BEGIN on a pooled connection, the work's statements on it, then COMMIT (a
 * failed COMMIT rejects) or, when the work throws, ROLLBACK; the connection goes back to the pool either way, and one
 * whose BEGIN, COMMIT or ROLLBACK failed is marked for the pool to discard, unless Postgres itself answered the refusal
 * (a deferred constraint or a serialization failure at COMMIT ends the transaction and leaves the session sound). The
 * work's `Tx` has no `transaction`, so nothing nests in it.
 */
export const transactor =
  (knex: Knex): Transact =>
  async (work) => {
    const conn = (await knexClient(knex).acquireConnection()) as { __knex__disposed?: unknown };
    const discard = (err: unknown) => {
      if (!isServerRefusal(err)) conn.__knex__disposed ??= err;
      throw err;
    };
    const tx = new PooledTx(knex, conn);
    try {
      await control(knex, conn, 'BEGIN;').catch(discard);
      let result;
      try {
        result = await work(tx as unknown as Tx);
      } catch (err) {
        tx.open = false;
        // Bounded as knex bounds it: a connection that does not answer is discarded and the work's error stands.
        let timer: NodeJS.Timeout | undefined;
        const unanswered = new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error('ROLLBACK unanswered')), ROLLBACK_TIMEOUT_MS);
        });
        await Promise.race([control(knex, conn, 'ROLLBACK;'), unanswered])
          .catch((rollbackErr: unknown) => void (conn.__knex__disposed ??= rollbackErr))
          .finally(() => clearTimeout(timer));
        throw err;
      }
      tx.open = false;
      const committed = (await control(knex, conn, 'COMMIT;').catch(discard)) as { command?: string };
      // Postgres answers COMMIT of a transaction in which a statement failed (and the work went on) with ROLLBACK.
      if (committed.command !== 'COMMIT')
        throw new Error(`the transaction was rolled back (${committed.command}): a statement in it failed`);
      return result;
    } finally {
      tx.open = false;
      // Resolves at once (knex's pool takes the connection back synchronously).
      void knexClient(knex).releaseConnection(conn);
    }
  };

/** An error Postgres answered with (it carries a severity), as opposed to a connection that failed. */
const isServerRefusal = (err: unknown): boolean => typeof (err as { severity?: unknown } | null)?.severity === 'string';

/**
 * What a store may use to run a statement: a table's builder, `raw` and `fn`, which both the pool and a transaction
 * offer (a transaction's is the pool's builders bound to its connection, so nothing else of knex is there).
 */
export type Queryable = Pick<Knex, 'raw' | 'fn'> &
  // The table call keeps knex's own type parameters: a store names its row type (then rows are of it), and one that
  // does not gets knex's `any` rows, as on the pool (`Knex` itself), so a store reads alike in and out of a transaction.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- knex's own default row type, see above
  (<TRecord extends object = any, TResult = TRecord[]>(table: string) => Knex.QueryBuilder<TRecord, TResult>);

/** Where a store runs a statement: inside the caller's transaction when given one, else on the pool. */
export const queryable = (knex: Knex, tx: Tx | undefined): Queryable =>
  tx === undefined ? knex : (tx as unknown as PooledTx).queryable();
