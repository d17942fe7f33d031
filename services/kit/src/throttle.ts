import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from './redis.ts';

/** One sliding-window counter: its key (under the Redis prefix) and how many attempts it allows per window. */
export interface ThrottleBucket {
  key: string;
  limit: number;
}

// Sliding-log counters in sorted sets scored by time. Each bucket has three keys:
//   <key>           the attempts that count (every attempt of some actions, failures of the others), window long;
//   <key>:inflight  attempts admitted whose outcome is not known yet (a password still being verified);
//   <key>:queue     requests waiting for in-flight attempts to settle, by arrival, so none waits behind newcomers.
// An attempt is admitted only while counted + in flight + waiters ahead stay under the limit in every bucket:
// counting in-flight attempts is what keeps a burst of parallel guesses from passing the limit together. But an
// in-flight attempt is not a failure, so when only in-flight attempts fill a bucket the answer is "wait" (-1), not
// a refusal; a refusal (the milliseconds until a place frees) comes only from attempts that really counted.
// ARGV: now, window, lease (an attempt in flight longer than this died with its process and counts as failed),
// give-up (waiters older than this have stopped waiting), member, hold (1: admit in flight, 0: count at once),
// then one limit per bucket.
const script = `
local now, window, lease, giveUp = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local member, hold = ARGV[5], ARGV[6] == '1'
local buckets = #KEYS / 3
local wait, worst, busy = 0, 0, false
for i = 1, buckets do
  local counted, inflight, queue = KEYS[3 * i - 2], KEYS[3 * i - 1], KEYS[3 * i]
  local limit = tonumber(ARGV[6 + i])
  local dead = redis.call('ZRANGEBYSCORE', inflight, '-inf', now - lease)
  for _, m in ipairs(dead) do
    redis.call('ZADD', counted, now, m)
    redis.call('PEXPIRE', counted, window)
  end
  redis.call('ZREMRANGEBYSCORE', inflight, '-inf', now - lease)
  redis.call('ZREMRANGEBYSCORE', counted, '-inf', now - window)
  redis.call('ZREMRANGEBYSCORE', queue, '-inf', now - giveUp)
  local count = redis.call('ZCARD', counted)
  if count >= limit then
    local oldest = redis.call('ZRANGE', counted, count - limit, count - limit, 'WITHSCORES')
    local free = tonumber(oldest[2]) + window - now
    if free > wait then wait, worst = free, i end
  else
    local ahead = redis.call('ZRANK', queue, member) or redis.call('ZCARD', queue)
    if count + redis.call('ZCARD', inflight) + ahead >= limit then busy = true end
  end
end
if wait == 0 and busy then
  for i = 1, buckets do
    redis.call('ZADD', KEYS[3 * i], 'NX', now, member)
    redis.call('PEXPIRE', KEYS[3 * i], giveUp)
  end
  return {-1, 0}
end
for i = 1, buckets do
  redis.call('ZREM', KEYS[3 * i], member)
  if wait == 0 then
    if hold then
      redis.call('ZADD', KEYS[3 * i - 1], now, member)
      redis.call('PEXPIRE', KEYS[3 * i - 1], math.max(window, lease))
    else
      redis.call('ZADD', KEYS[3 * i - 2], now, member)
      redis.call('PEXPIRE', KEYS[3 * i - 2], window)
    end
  end
end
return {wait, worst}
`;

/**
 * A bucket's key in Redis: every bucket of every throttle under one hash tag, so that on a Redis Cluster one script
 * can weigh an attempt against all its buckets at once (attempts are few; one slot holds them all).
 */
export const throttleKey = (key: string) => `{throttle}:${key}`;

/** What `admit` decided: go ahead and settle the attempt when its outcome is known, or refuse for this long. */
export type Admission<B extends ThrottleBucket = ThrottleBucket> =
  | { admitted: true; succeeded: () => Promise<void>; failed: () => Promise<void> }
  | { admitted: false; retryAfterMs: number; bucket?: B };

export interface ThrottleStoreOptions {
  /** The clock of the windows (tests move it). */
  now?: () => number;
  /** How long a request waits for in-flight attempts to settle before it is refused anyway. */
  maxWaitMs?: number;
  /** How often a waiting request looks again. */
  pollMs?: number;
  /** An attempt still unsettled after this long is taken for a failure (its process died). */
  leaseMs?: number;
}

/** Attempt counters in Redis, shared by every replica of a service (sign-in attempts, invitation mails). */
export class ThrottleStore {
  private readonly now: () => number;
  private readonly maxWaitMs: number;
  private readonly pollMs: number;
  private readonly leaseMs: number;

  constructor(
    private readonly redis: Redis,
    private readonly windowMs: number,
    { now = Date.now, maxWaitMs = 3000, pollMs = 20, leaseMs = 60_000 }: ThrottleStoreOptions = {},
  ) {
    this.now = now;
    this.maxWaitMs = maxWaitMs;
    this.pollMs = pollMs;
    this.leaseMs = leaseMs;
    this.redis.defineCommand('wmsThrottle', { lua: script });
  }

  /**
   * Admits an attempt when every bucket has room, atomically, so racing attempts cannot pass a limit together.
   * `counting: 'every_attempt'` counts it at once; `'failures'` holds it in flight until `succeeded` (it never
   * counts) or `failed` (it counts). While only attempts in flight fill a bucket this waits for them to settle
   * (at most `maxWaitMs`, then refuses for a second): a right password must not be refused for a budget that
   * attempts which may yet succeed are holding, nor may a guess start before those attempts are known not to fail.
   */
  async admit<B extends ThrottleBucket>(buckets: B[], counting: 'every_attempt' | 'failures'): Promise<Admission<B>> {
    const redis = this.redis as unknown as { wmsThrottle(...args: Array<string | number>): Promise<[number, number]> };
    const keys = buckets.flatMap((b) => [
      throttleKey(b.key),
      throttleKey(`${b.key}:inflight`),
      throttleKey(`${b.key}:queue`),
    ]);
    const member = randomUUID();
    const hold = counting === 'failures' ? 1 : 0;
    const deadline = performance.now() + this.maxWaitMs;
    for (;;) {
      const args = [
        this.now(),
        this.windowMs,
        this.leaseMs,
        this.maxWaitMs,
        member,
        hold,
        ...buckets.map((b) => b.limit),
      ];
      const [waitMs, worst] = await redis.wmsThrottle(keys.length, ...keys, ...args);
      if (waitMs > 0) return { admitted: false, retryAfterMs: waitMs, bucket: buckets[worst - 1] };
      if (waitMs === 0) break;
      if (performance.now() >= deadline) {
        await this.leaveQueues(buckets, member);
        return { admitted: false, retryAfterMs: 1000 };
      }
      await sleep(this.pollMs);
    }
    if (!hold) return { admitted: true, succeeded: async () => undefined, failed: async () => undefined };
    return {
      admitted: true,
      // Also from the counted set: a success that took longer than the lease was counted as a failure meanwhile.
      succeeded: () =>
        this.settle(buckets, (tx, b) =>
          tx.zrem(throttleKey(`${b.key}:inflight`), member).zrem(throttleKey(b.key), member),
        ),
      failed: () =>
        this.settle(buckets, (tx, b) =>
          tx
            .zrem(throttleKey(`${b.key}:inflight`), member)
            .zadd(throttleKey(b.key), this.now(), member)
            .pexpire(throttleKey(b.key), this.windowMs),
        ),
    };
  }

  private async settle(
    buckets: ThrottleBucket[],
    step: (tx: ReturnType<Redis['multi']>, bucket: ThrottleBucket) => void,
  ): Promise<void> {
    const tx = this.redis.multi();
    for (const b of buckets) step(tx, b);
    await tx.exec();
  }

  private async leaveQueues(buckets: ThrottleBucket[], member: string): Promise<void> {
    await this.settle(buckets, (tx, b) => tx.zrem(throttleKey(`${b.key}:queue`), member));
  }
}
