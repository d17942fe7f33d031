import { type CachedMembership, membershipCache } from '@wms/kit/membership';
import { keyToRead, type Redis } from '@wms/kit/redis';
import type { WorkspaceUser } from '../domain/model.ts';

/** A user's access to a workspace as the gateway caches it: their membership, or null when they have none. */
export interface CacheEntry {
  userId: string;
  member: WorkspaceUser | null;
}

const keysOf = (workspaceId: string, userId: string) => [
  membershipCache.key(workspaceId, userId),
  membershipCache.previousKey(workspaceId, userId),
];

const cached = (m: WorkspaceUser): CachedMembership => ({ workspaceUserId: m.id, actorId: m.actorId, role: m.role });

/**
 * Writes the gateway's membership cache. Changes are written just before their transaction commits (a Redis failure
 * then aborts the change rather than leaving a stale entry); a fill from a cache miss only sets an absent key, so it
 * cannot overwrite a newer change or a removal's tombstone.
 */
export class MembershipCache {
  constructor(private readonly redis: Redis) {}

  async fill(member: WorkspaceUser): Promise<void> {
    const { workspaceId, userId } = member;
    await this.redis.set(
      keyToRead(this.redis, membershipCache.key(workspaceId, userId), membershipCache.previousKey(workspaceId, userId)),
      membershipCache.encode(cached(member)),
      'EX',
      membershipCache.ttlSeconds,
      'NX',
    );
  }

  /** Writes both names of each entry's key, one command each (on a Redis Cluster each user's is in its own slot). */
  async set(workspaceId: string, entries: CacheEntry[]): Promise<void> {
    await Promise.all(
      entries.flatMap(({ userId, member }) => {
        const value = member ? membershipCache.encode(cached(member)) : membershipCache.tombstone;
        return keysOf(workspaceId, userId).map((key) => this.redis.set(key, value, 'EX', membershipCache.ttlSeconds));
      }),
    );
  }

  /** Drops entries after a failed change, so the next request reads the truth from the database. */
  async drop(workspaceId: string, userIds: string[]): Promise<void> {
    await Promise.all(
      userIds.flatMap((u) => keysOf(workspaceId, u)).map((key) => this.redis.del(key).catch(() => undefined)),
    );
  }
}
