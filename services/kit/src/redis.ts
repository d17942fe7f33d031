import { Redis } from 'ioredis';
import type { Logger } from 'pino';

export { Redis } from 'ioredis';

/**
 * A Redis client for the request path: no offline queue and one retry, so a Redis outage fails a request in
 * milliseconds instead of hanging it. Workers (BullMQ) need their own client with `maxRetriesPerRequest: null`.
 */
export function createRedis(url: string, prefix: string, log: Logger, name = 'request'): Redis {
  const redis = new Redis(url, {
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
