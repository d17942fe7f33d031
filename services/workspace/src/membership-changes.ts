import type { Transact, Tx } from '@wms/kit/transactions';
import type { CacheEntry, MembershipCache } from './store/membership-cache.ts';

/** What a change of memberships did: its result, and the new cache entry of every user whose access it changed. */
export interface MembershipChange<T> {
  result: T;
  workspaceId: string;
  cache: CacheEntry[];
}

/** Runs changes of memberships in one transaction each, writing their cache entries before the commit (dropping them if it fails). */
export class MembershipChanges {
  constructor(
    private readonly transact: Transact,
    private readonly cache: MembershipCache,
  ) {}

  async run<T>(work: (tx: Tx) => Promise<MembershipChange<T>>): Promise<T> {
    let written: { workspaceId: string; userIds: string[] } | undefined;
    try {
      return await this.transact(async (tx) => {
        const { result, workspaceId, cache } = await work(tx);
        written = { workspaceId, userIds: cache.map((c) => c.userId) };
        await this.cache.set(workspaceId, cache);
        return result;
      });
    } catch (err) {
      if (written) await this.cache.drop(written.workspaceId, written.userIds);
      throw err;
    }
  }
}
