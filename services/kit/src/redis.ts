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
  redis.on('error', (err) => log.warn({ err: err.message }, 'redis connection error'));
  return redis;
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
