import { createHash, randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { pino } from 'pino';
import { createDb, type Knex, type Migration, migrate } from '@wms/kit/db';
import { createOutboxTable, EVENTS_MESSAGE_PREFIX } from '@wms/kit/outbox';
import type { RedisTarget } from '@wms/kit/redis';
import { dropDatabase, withDatabase } from '@wms/local-cluster/data';

// Pieces of the local cluster, which tests use for databases and Redis prefixes of their own.
export { dropRedisPrefix, withDatabase } from '@wms/local-cluster/data';

/** Admin URL of the test Postgres (the machine's, unless `TEST_DATABASE_URL` says otherwise). */
export const testAdminUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/**
 * The test Redis: the machine's, unless `TEST_REDIS_URL` says otherwise; in the `redis-cluster` test projects, the
 * Redis Cluster their global setup started.
 */
export const testRedis: RedisTarget = {
  url: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
  clusterNodes: providedClusterNodes(),
};

/** What a project's global setup provided as `redisClusterNodes` (none outside the test runner, too). */
function providedClusterNodes(): string[] {
  try {
    return (inject as (key: string) => string[] | undefined)('redisClusterNodes') ?? [];
  } catch {
    return [];
  }
}

/** The test Redis as a process's environment names it. */
export const testRedisEnv = { REDIS_URL: testRedis.url, REDIS_CLUSTER_NODES: testRedis.clusterNodes.join(',') };

async function admin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: testAdminUrl });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * A fresh database for one test file, cloned from a template migrated once per set of migrations (as Immich's
 * medium tests do): `CREATE DATABASE t_<rand> TEMPLATE <service>_tpl_<hash>`. The hash covers each migration's name
 * and code, and kit's `createOutboxTable` that two of them call, so a migration changed under its name gets a template
 * of its own.
 */
export async function createTestDatabase(
  schema: string,
  migrations: Migration[],
): Promise<{ url: string; drop(): Promise<void> }> {
  const digest = createHash('sha256')
    .update(JSON.stringify(migrations.map((m) => [m.name, String(m.up), String(m.down ?? ''), m.config ?? null])))
    .update(String(createOutboxTable))
    .digest('hex')
    .slice(0, 10);
  const template = `${schema}_tpl_${digest}`;
  const name = `t_${schema}_${randomBytes(6).toString('hex')}`;
  await admin(async (client) => {
    // One template builder at a time across parallel test files.
    await client.query('SELECT pg_advisory_lock(hashtext($1))', [template]);
    try {
      const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [template]);
      if (!rowCount) {
        await client.query(`CREATE DATABASE "${template}"`);
        const db = createDb({ url: withDatabase(testAdminUrl, template), schema, log: pino({ level: 'silent' }) });
        const migrated = migrate(db, schema, migrations).finally(() => db.destroy());
        // No half-migrated template for the next test file to clone.
        await migrated.catch(async (err: unknown) => {
          await client.query(`DROP DATABASE "${template}"`);
          throw err;
        });
      }
      await client.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`);
    } finally {
      await client.query('SELECT pg_advisory_unlock(hashtext($1))', [template]);
    }
  });
  return {
    url: withDatabase(testAdminUrl, name),
    drop: () => dropDatabase(testAdminUrl, name),
  };
}

/**
 * `createTestDatabase` with a pool on it (a 5 s statement timeout unless told otherwise): `drop` closes the pool and
 * drops the database.
 */
export async function openTestDatabase(
  schema: string,
  migrations: Migration[],
  { statementTimeoutMs }: { statementTimeoutMs?: number } = {},
): Promise<{ db: Knex; url: string; drop: () => Promise<void> }> {
  const database = await createTestDatabase(schema, migrations);
  const db = createDb({ url: database.url, schema, log: pino({ level: 'silent' }), statementTimeoutMs });
  return {
    db,
    url: database.url,
    drop: async () => {
      await db.destroy();
      await database.drop();
    },
  };
}

/** A Redis key prefix of its own for one test file. */
export const testRedisPrefix = (): string => `test-${randomBytes(6).toString('hex')}`;

/**
 * Runs one statement without the pool's statement timeout: a test's bulk seed (tens of thousands of rows into indexed
 * tables can take longer than 5 s on a busy two-core machine running other test files beside it), or a replication
 * slot's creation, which waits for the transactions then running on the server (other test files').
 */
export async function untimed(db: Knex, sql: string, bindings: readonly unknown[] = []): Promise<void> {
  await db.transaction(async (trx) => {
    await trx.raw('SET LOCAL statement_timeout = 0');
    await trx.raw(sql, bindings as never);
  });
}

/** An event as a data owner wrote it into its transaction's WAL (kit outbox.ts), with the owner's schema as `source`. */
export interface EmittedEvent {
  source: string;
  workspace_id: string;
  channel: string;
  event: string;
  payload: Record<string, unknown>;
}

/**
 * Reads back the events written into a test database's WAL from now on, in commit order, through a replication slot
 * of the test's own (`test_decoding`, which prints each logical message's content; the slot goes with the database).
 * `read` returns every event committed so far, or a workspace's.
 */
export async function emittedEvents(db: Knex): Promise<{ read(workspaceId?: string): Promise<EmittedEvent[]> }> {
  const slot = `t_events_${randomBytes(6).toString('hex')}`;
  await untimed(db, `SELECT pg_create_logical_replication_slot(?, 'test_decoding')`, [slot]);
  const seen: EmittedEvent[] = [];
  const header = `message: transactional: 1 prefix: ${EVENTS_MESSAGE_PREFIX}, sz: `;
  return {
    async read(workspaceId) {
      const { rows } = await db.raw<{ rows: Array<{ data: string }> }>(
        'SELECT data FROM pg_logical_slot_get_changes(?, NULL, NULL)',
        [slot],
      );
      for (const { data } of rows) {
        if (!data.startsWith(header)) continue;
        const message = JSON.parse(data.slice(data.indexOf(' content:') + ' content:'.length)) as {
          source: string;
          events: Array<Omit<EmittedEvent, 'source'>>;
        };
        seen.push(...message.events.map((e) => ({ source: message.source, ...e })));
      }
      return seen.filter((e) => workspaceId === undefined || e.workspace_id === workspaceId);
    },
  };
}
