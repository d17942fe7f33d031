import { type CachedMembership, membershipCache } from '@wms/kit/membership';
import type { Redis } from '@wms/kit/redis';
import type { WorkspaceUser } from '../domain/model.ts';

/** A user's access to a workspace as the gateway caches it: their membership, or null when they have none. */
export interface CacheEntry {
  userId: string;
  member: WorkspaceUser | null;
}

const cached = (m: WorkspaceUser): CachedMembership => ({ workspaceUserId: m.id, actorId: m.actorId, role: m.role });

/**
 * Writes the gateway's membership cache. Changes are written just before their transaction commits (a Redis failure
 * then aborts the change rather than leaving a stale entry); a fill from a cache miss only sets an absent key, so it
 * cannot overwrite a newer change or a removal's tombstone.
 */
export class MembershipCache {
  constructor(private readonly redis: Redis) {}

  async fill(member: WorkspaceUser): Promise<void> {
    await this.redis.set(
      membershipCache.key(member.workspaceId, member.userId),
      membershipCache.encode(cached(member)),
      'EX',
      membershipCache.ttlSeconds,
      'NX',
    );
  }

  async set(workspaceId: string, entries: CacheEntry[]): Promise<void> {
    if (entries.length === 0) return;
    const pipeline = this.redis.multi();
    for (const { userId, member } of entries) {
      const value = member ? membershipCache.encode(cached(member)) : membershipCache.tombstone;
      pipeline.set(membershipCache.key(workspaceId, userId), value, 'EX', membershipCache.ttlSeconds);
    }
    const results = await pipeline.exec();
    const failed = results?.find(([err]) => err)?.[0];
    if (failed) throw failed;
  }

  /** Drops entries after a failed change, so the next request reads the truth from the database. */
  async drop(workspaceId: string, userIds: string[]): Promise<void> {
    if (userIds.length > 0)
      await this.redis.del(...userIds.map((u) => membershipCache.key(workspaceId, u))).catch(() => undefined);
  }
}
