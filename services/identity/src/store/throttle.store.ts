import { randomUUID } from 'node:crypto';
import type { Redis } from '@wms/kit/redis';
import type { Bucket } from '../domain/throttle.ts';

// Sliding-log counters, one sorted set per bucket scored by time. ARGV: now, window, record (1 = count this
// attempt when every bucket has room), member, then one limit per key. Returns 0 when allowed, else the
// milliseconds until the fullest bucket frees a place.
const script = `
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local record = ARGV[3] == '1'
local member = ARGV[4]
local wait = 0
for i, key in ipairs(KEYS) do
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
  local limit = tonumber(ARGV[4 + i])
  local count = redis.call('ZCARD', key)
  if count >= limit then
    local oldest = redis.call('ZRANGE', key, count - limit, count - limit, 'WITHSCORES')
    local free = tonumber(oldest[2]) + window - now
    if free > wait then wait = free end
  end
end
if wait == 0 and record then
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

  /** Milliseconds to wait when any bucket is full, else 0; with `record`, an allowed attempt is counted at once. */
  async check(buckets: Bucket[], record: boolean): Promise<number> {
    const redis = this.redis as unknown as { wmsThrottle(...args: Array<string | number>): Promise<number> };
    return redis.wmsThrottle(buckets.length, ...buckets.map((b) => b.key), this.now(), this.windowMs, record ? 1 : 0, randomUUID(), ...buckets.map((b) => b.limit));
  }

  /** Counts a failed attempt in every bucket. */
  async recordFailure(buckets: Bucket[]): Promise<void> {
    const now = this.now();
    const member = randomUUID();
    const pipeline = this.redis.multi();
    for (const b of buckets) pipeline.zadd(b.key, now, member).pexpire(b.key, this.windowMs);
    await pipeline.exec();
  }
}
