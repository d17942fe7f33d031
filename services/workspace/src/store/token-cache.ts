import type { Redis } from '@wms/kit/redis';
import { tokenCache } from '@wms/kit/tokens';
import type { Transact, Tx } from '@wms/kit/transactions';

const keysOf = (hash: Buffer) => [tokenCache.key(hash), tokenCache.previousKey(hash)];

/**
 * The gateway's token cache, as the workspace service ends tokens in it: a tombstone per secret, written just before
 * the change commits (a Redis failure aborts the change rather than leaving a usable entry), dropped if it fails.
 */
export class TokenCache {
  constructor(
    private readonly redis: Redis,
    private readonly transact: Transact,
  ) {}

  /** Runs a change in one transaction that ends the tokens whose secrets' hashes it returns. */
  async ending<T>(work: (tx: Tx) => Promise<{ result: T; ended: Buffer[] }>): Promise<T> {
    let written: Buffer[] = [];
    try {
      return await this.transact(async (tx) => {
        const { result, ended } = await work(tx);
        written = ended;
        await this.tombstone(ended);
        return result;
      });
    } catch (err) {
      await this.drop(written);
      throw err;
    }
  }

  /** Ends the tokens in the cache (inside the transaction that ends them, before its commit). */
  async tombstone(hashes: Buffer[]): Promise<void> {
    // Both names of each key, one command each (on a Redis Cluster each token's is in its own slot).
    await Promise.all(
      hashes.flatMap(keysOf).map((key) => this.redis.set(key, tokenCache.tombstone, 'EX', tokenCache.ttlSeconds)),
    );
  }

  /** Drops entries after a failed change, so the next request reads the truth from the database. */
  async drop(hashes: Buffer[]): Promise<void> {
    await Promise.all(hashes.flatMap(keysOf).map((key) => this.redis.del(key).catch(() => undefined)));
  }
}
