import { Cluster, Redis, type RedisOptions } from 'ioredis';
import type { Logger } from 'pino';

export { Redis } from 'ioredis';

/**
 * Where Redis is: the server at `url`, or, with `clusterNodes`, a Redis Cluster those nodes (`host:port`) introduce,
 * `url` then giving only the credentials and TLS (`rediss:`) of every node.
 */
export interface RedisTarget {
  url: string;
  clusterNodes: readonly string[];
}

/** One Redis server at `url`. */
export const redisAt = (url: string): RedisTarget => ({ url, clusterNodes: [] });

/** The target a service's or the gateway's configuration names (`REDIS_URL`, `REDIS_CLUSTER_NODES`). */
export const redisTarget = (config: {
  REDIS_URL: string;
  REDIS_CLUSTER_NODES?: readonly string[] | undefined;
}): RedisTarget => ({ url: config.REDIS_URL, clusterNodes: config.REDIS_CLUSTER_NODES ?? [] });

/** Whether a client talks to a Redis Cluster, where every multi-key command must stay within one hash slot. */
export const isCluster = (redis: Redis): boolean => (redis as Redis | Cluster).isCluster;

/**
 * Which of a key's two names to read while its name changes (a hash tag added for Redis Cluster; see
 * docs/operations.md#upgrades): writers keep both current for a release, since a rolling upgrade runs the previous
 * release's readers and writers beside this one's. On one Redis readers keep the previous name, which either release's
 * writers update; on a cluster, where no previous release ran, the new one.
 */
export const keyToRead = (redis: Redis, key: string, previousKey: string): string =>
  isCluster(redis) ? key : previousKey;

/**
 * A client of the target with these options: a `Redis`, or a `Cluster` (typed as one: it takes the same commands,
 * and redirects each to the node that owns its slot). The only place either is made.
 */
export function connectRedis(target: RedisTarget, options: RedisOptions): Redis {
  if (target.clusterNodes.length === 0) return new Redis(target.url, options);
  const { keyPrefix, enableOfflineQueue, lazyConnect, retryStrategy, ...node } = options;
  const url = new URL(target.url);
  const cluster = new Cluster(
    target.clusterNodes.map((n) => {
      const [host, port] = n.split(':');
      return { host: host!, port: Number(port) };
    }),
    {
      keyPrefix,
      enableOfflineQueue,
      lazyConnect,
      clusterRetryStrategy: retryStrategy,
      redisOptions: {
        ...node,
        username: decodeURIComponent(url.username) || undefined,
        password: decodeURIComponent(url.password) || undefined,
        tls: url.protocol === 'rediss:' ? {} : undefined,
      },
    },
  );
  return cluster as unknown as Redis;
}

/**
 * A Redis client for the request path: no offline queue and one retry, so a Redis outage fails a request in
 * milliseconds instead of hanging it. Workers (BullMQ) need their own client with `maxRetriesPerRequest: null`.
 */
export function createRedis(target: RedisTarget, prefix: string, log: Logger, name = 'request'): Redis {
  const redis = connectRedis(target, {
    keyPrefix: `${prefix}:`,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: 2000,
    connectTimeout: 2000,
    connectionName: `wms-${name}`,
    retryStrategy: (times) => Math.min(times * 200, 2000),
  });
  logConnectionErrors(redis, log, {}, 'redis connection error');
  return redis;
}

/**
 * Logs a client's connection errors without flooding: the first error since the client was last ready at warn, the
 * reconnect attempts after it at debug (the dependency monitor, health.ts, tells the outage and its end). The
 * listener is also what keeps an `error` event from crashing the process.
 */
export function logConnectionErrors(
  redis: Redis,
  log: Logger | undefined,
  fields: Record<string, unknown>,
  msg: string,
): void {
  let failing = false;
  redis.on('ready', () => (failing = false));
  redis.on('error', (err: Error) => {
    if (!log) return;
    if (failing) log.debug({ ...fields, err: err.message }, msg);
    else log.warn({ ...fields, err: err.message }, msg);
    failing = true;
  });
}

/** Waits until a client created with `createRedis` is ready (used at boot, where waiting is right). */
export async function redisReady(redis: Redis, timeoutMs = 10_000): Promise<void> {
  if (redis.status === 'ready') return;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('redis did not become ready in time')), timeoutMs);
    redis.once('ready', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}
