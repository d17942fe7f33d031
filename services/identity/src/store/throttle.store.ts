import { randomUUID } from 'node:crypto';
import type { Redis } from '@wms/kit/redis';
import type { Bucket } from '../domain/throttle.ts';

// Sliding-log counters, one sorted set per bucket scored by time. ARGV: now, window, member, then one limit per key.
// When every bucket has room the attempt is counted at once (as `member`, so it can be given back) and 0 returned,
// else the milliseconds until the fullest bucket frees a place.
const script = `
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local member = ARGV[3]
local wait = 0
for i, key in ipairs(KEYS) do
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
  local limit = tonumber(ARGV[3 + i])
  local count = redis.call('ZCARD', key)
  if count >= limit then
    local oldest = redis.call('ZRANGE', key, count - limit, count - limit, 'WITHSCORES')
    local free = tonumber(oldest[2]) + window - now
    if free > wait then wait = free end
  end
end
if wait == 0 then
  for _, key in ipairs(KEYS) do
    redis.call('ZADD', key, now, member)
    redis.call('PEXPIRE', key, window)
  end
end
return wait
`;

/** Attempt counters in Redis, shared by every replica of the identity service. */
export class ThrottleStore {
  constructor(
    private readonly redis: Redis,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {
    this.redis.defineCommand('wmsThrottle', { lua: script });
  }

  /**
   * Counts an attempt in every bucket when all have room (atomically, so racing attempts cannot pass the limit
   * together); else says how many milliseconds to wait. `release` takes a counted attempt back.
   */
  async reserve(buckets: Bucket[]): Promise<{ waitMs: number; release: () => Promise<void> }> {
    const redis = this.redis as unknown as { wmsThrottle(...args: Array<string | number>): Promise<number> };
    const member = randomUUID();
    const waitMs = await redis.wmsThrottle(buckets.length, ...buckets.map((b) => b.key), this.now(), this.windowMs, member, ...buckets.map((b) => b.limit));
    return {
      waitMs,
      release: async () => {
        const pipeline = this.redis.multi();
        for (const b of buckets) pipeline.zrem(b.key, member);
        await pipeline.exec();
      },
    };
  }
}
