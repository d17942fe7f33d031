import knexFactory, { type Knex } from 'knex';
import type { Logger } from 'pino';
import type { Transact, Tx } from './transactions.ts';

export type { Knex } from 'knex';
export type { Transact, Tx } from './transactions.ts';

/** One migration of a service's schema. */
export interface Migration {
  name: string;
  up(knex: Knex): Promise<void>;
  down?(knex: Knex): Promise<void>;
}

export interface DbOptions {
  url: string;
  schema: string;
  log: Logger;
  poolMax?: number;
  statementTimeoutMs?: number;
}

/** A pooled knex instance confined to one service's schema, with bounded connects and statements. */
export function createDb({ url, schema, log, poolMax = 10, statementTimeoutMs = 5000 }: DbOptions): Knex {
  const knex = knexFactory({
    client: 'pg',
    connection: {
      connectionString: url,
      connectionTimeoutMillis: 5000,
      statement_timeout: statementTimeoutMs,
      application_name: `wms-${schema}`,
    },
    searchPath: [schema],
    pool: {
      min: 0,
      max: poolMax,
      afterCreate(conn: { on(event: 'error', fn: (err: Error) => void): void }, done: (err: Error | null, conn: unknown) => void) {
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
        /^(Acquire connection error|Connection Error)/.test(String(message)) ? log.debug({ knex: String(message) }, 'database connection failed') : log.warn({ knex: message }, 'knex warning'),
      error: (message: unknown) => log.error({ knex: message }, 'knex error'),
      deprecate: (method: string, alternative: string) => log.warn({ method, alternative }, 'knex deprecation'),
      debug: (message: unknown) => log.debug({ knex: message }, 'knex debug'),
    },
  });
  return knex;
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
        return { up: m.up, down: m.down ?? (async () => {}) };
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

/** The `migrate` role of a service: applies its migrations, logs what ran, and closes the pool. */
export async function runMigrationRole(knex: Knex, schema: string, migrations: Migration[], log: Logger): Promise<void> {
  try {
    const applied = await migrate(knex, schema, migrations);
    log.info({ applied }, 'migrations applied');
  } finally {
    await knex.destroy();
  }
}

/** The transaction runner services receive: each `Tx` it hands out is a knex transaction on `knex`. */
export const transactor = (knex: Knex): Transact => (work) => knex.transaction((trx) => work(trx as unknown as Tx));

/** Where a store runs a statement: inside the caller's transaction when given one, else on the pool. */
export const queryable = (knex: Knex, tx: Tx | undefined): Knex => (tx === undefined ? knex : (tx as unknown as Knex.Transaction));
