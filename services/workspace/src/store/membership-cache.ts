import { type CachedMembership, membershipCache } from '@wms/kit/membership';
import type { Redis } from '@wms/kit/redis';

/**
 * Writes the gateway's membership cache. Changes are written just before their transaction commits (a Redis failure
 * then aborts the change rather than leaving a stale entry); a fill from a cache miss only sets an absent key, so it
 * cannot overwrite a newer change or a removal's tombstone.
 */
export class MembershipCache {
  constructor(private readonly redis: Redis) {}

  async fill(workspaceId: string, userId: string, m: CachedMembership): Promise<void> {
    await this.redis.set(membershipCache.key(workspaceId, userId), membershipCache.encode(m), 'EX', membershipCache.ttlSeconds, 'NX');
  }

  async set(workspaceId: string, entries: Array<{ userId: string; membership: CachedMembership | null }>): Promise<void> {
    if (entries.length === 0) return;
    const pipeline = this.redis.multi();
    for (const { userId, membership } of entries) {
      const value = membership ? membershipCache.encode(membership) : membershipCache.tombstone;
      pipeline.set(membershipCache.key(workspaceId, userId), value, 'EX', membershipCache.ttlSeconds);
    }
    const results = await pipeline.exec();
    const failed = results?.find(([err]) => err);
    if (failed) throw failed[0];
  }

  /** Drops entries after a failed change, so the next request reads the truth from the database. */
  async drop(workspaceId: string, userIds: string[]): Promise<void> {
    if (userIds.length > 0) await this.redis.del(...userIds.map((u) => membershipCache.key(workspaceId, u))).catch(() => undefined);
  }
}
