/** A caller's membership of a workspace, as the gateway needs it on every workspace request. */
export interface CachedMembership {
  workspaceUserId: string;
  actorId: string;
  role: string;
}

const TOMBSTONE = 'none';

/**
 * The membership cache that the workspace service (which owns memberships) writes and the gateway reads, in Redis
 * under the deployment's prefix. Changes overwrite the entry; removals and deletions write a tombstone, so a
 * concurrent cache fill (which only sets an absent key) cannot bring a removed member back.
 */
export const membershipCache = {
  /** Hash-tagged by user: on a Redis Cluster it shares a slot with the user's sessions (see `session.key`). */
  key: (workspaceId: string, userId: string) => `membership:{${userId}}:${workspaceId}`,
  /** The previous release's key: changes and removals are written to it too (kit's `keyToRead`). */
  previousKey: (workspaceId: string, userId: string) => `membership:${workspaceId}:${userId}`,
  ttlSeconds: 600,
  tombstone: TOMBSTONE,
  encode: (m: CachedMembership): string => JSON.stringify([m.workspaceUserId, m.actorId, m.role]),
  /** undefined: not cached; null: known not to be a member. */
  decode(value: string | null): CachedMembership | null | undefined {
    if (value === null) return undefined;
    if (value === TOMBSTONE) return null;
    const [workspaceUserId, actorId, role] = JSON.parse(value) as [string, string, string];
    return { workspaceUserId, actorId, role };
  },
};
