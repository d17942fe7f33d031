import { connectRedis, isCluster, type RedisTarget, redisAt } from '@wms/kit/redis';
import type { Cluster } from 'ioredis';
import pg from 'pg';
import { redact } from './infra.ts';

// A cluster's data: its database on a Postgres server and its keys under a prefix on a Redis.

/** The same server URL naming another database. */
export const withDatabase = (url: string, database: string): string => {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
};

async function withPg<T>(adminUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 5000 });
  client.on('error', () => {});
  try {
    await client.connect();
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    throw new Error(
      `postgres at ${redact(adminUrl)} refused the connection (${reason}); set DATABASE_URL to an admin connection URL`,
      { cause: err },
    );
  }
  try {
    return await work(client);
  } finally {
    await client.end().catch(() => {});
  }
}

/** Creates the database; with `reuse`, an existing one is kept. */
export async function createDatabase(adminUrl: string, name: string, reuse: boolean): Promise<void> {
  await withPg(adminUrl, async (client) => {
    if (reuse) {
      const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
      if (rowCount) return;
    }
    try {
      await client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`);
    } catch (err) {
      // Two launchers starting at once may both see it missing.
      if (!(reuse && (err as { code?: string }).code === '42P04')) throw err;
    }
  });
}

/**
 * Drops the database even while connections remain (Postgres 13+), and first its replication slots (realtime's
 * events slot), which would refuse the drop and keep the server's WAL for ever: new connections refused, every
 * connection to it ended (a slot's reader among them), each slot dropped once nothing reads it.
 */
export async function dropDatabase(adminUrl: string, name: string): Promise<void> {
  await withPg(adminUrl, async (client) => {
    const db = client.escapeIdentifier(name);
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!rowCount) return;
    await client.query(`ALTER DATABASE ${db} ALLOW_CONNECTIONS false`);
    for (let attempt = 0; ; attempt++) {
      await client.query(
        'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
        [name],
      );
      try {
        await client.query('SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE database = $1', [
          name,
        ]);
        break;
      } catch (err) {
        // 55006: a reader that was just ended still holds its slot for a moment.
        if ((err as { code?: string }).code !== '55006' || attempt === 50) throw err;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    await client.query(`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`);
  });
}

/**
 * Removes every key under a prefix (a plain client, since a prefixed one would prefix the results again), on each
 * master of a cluster.
 */
export async function dropRedisPrefix(target: RedisTarget | string, prefix: string): Promise<number> {
  const redis = connectRedis(typeof target === 'string' ? redisAt(target) : target, {
    lazyConnect: true,
    maxRetriesPerRequest: 1,
    connectTimeout: 2000,
    retryStrategy: () => null,
  });
  redis.on('error', () => {});
  let deleted = 0;
  try {
    await redis.connect();
    const nodes = isCluster(redis) ? (redis as unknown as Cluster).nodes('master') : [redis];
    for (const node of nodes) {
      let cursor = '0';
      do {
        const [next, keys] = await node.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
        cursor = next;
        // One key a command: keys of several slots cannot share one on a cluster.
        for (const n of await Promise.all(keys.map((key) => redis.unlink(key)))) deleted += n;
      } while (cursor !== '0');
    }
  } finally {
    redis.disconnect();
  }
  return deleted;
}
