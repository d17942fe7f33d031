import type { Logger } from '@wms/kit/logger';
import type { ObjectStorage } from '@wms/kit/storage';
import { UNATTACHED_TTL_MS } from '../domain/asset.ts';
import type { AssetStore } from '../store/asset.store.ts';

/** Removes reservations no message attached within 24 hours, with any bytes they had, a bounded batch at a time. */
export const cleanupProcessor =
  ({ assets, storage, log }: { assets: AssetStore; storage: ObjectStorage; log: Logger }) =>
  async (): Promise<{ removed: number }> => {
    let removed = 0;
    for (;;) {
      const keys = await assets.deleteUnattached(new Date(Date.now() - UNATTACHED_TTL_MS), 500);
      const stored = keys.filter((k): k is string => k !== null);
      if (stored.length > 0) await storage.delete(stored);
      removed += keys.length;
      if (keys.length < 500) break;
    }
    if (removed > 0) log.info({ removed }, 'removed unattached assets');
    return { removed };
  };
