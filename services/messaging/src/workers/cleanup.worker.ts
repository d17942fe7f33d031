import { randomUUID } from 'node:crypto';
import type { Logger } from '@wms/kit/logger';
import type { Attachments } from '../adapters/attachments.ts';
import { CLIENT_ID_TTL_MS } from '../domain/message.ts';
import { RELEASE_GRACE_MS } from '../queues.ts';
import type { MessageStore } from '../store/message.store.ts';

const BATCH = 500;

/** The message ids of a batch, by workspace. */
function byWorkspace(messages: Array<{ workspaceId: string; id: string }>): Map<string, string[]> {
  const ids = new Map<string, string[]>();
  for (const m of messages) {
    const group = ids.get(m.workspaceId);
    if (group) group.push(m.id);
    else ids.set(m.workspaceId, [m.id]);
  }
  return ids;
}

/**
 * Removes the assets of deleted messages whose own release failed (one asset-service call per workspace of a batch),
 * and the client_message_id claims past their 24 hours, and fills in the search vectors of messages written before
 * search existed, a bounded batch at a time.
 */
export const cleanupProcessor =
  ({ messages, attachments, log }: { messages: MessageStore; attachments: Attachments; log: Logger }) =>
  async (): Promise<{ released: number; expiredClientIds: number; indexed: number }> => {
    let released = 0;
    for (;;) {
      const batch = await messages.withUnreleasedAssets(new Date(Date.now() - RELEASE_GRACE_MS), BATCH);
      for (const [workspaceId, ids] of byWorkspace(batch)) {
        await attachments.release({ requestId: randomUUID(), workspaceId }, ids);
        await messages.forgetAssets(workspaceId, ids);
      }
      released += batch.length;
      if (batch.length < BATCH) break;
    }
    let expiredClientIds = 0;
    for (;;) {
      const removed = await messages.deleteClientIds(new Date(Date.now() - CLIENT_ID_TTL_MS), BATCH);
      expiredClientIds += removed;
      if (removed < BATCH) break;
    }
    let indexed = 0;
    for (;;) {
      const filled = await messages.indexForSearch(BATCH);
      indexed += filled;
      if (filled < BATCH) break;
    }
    if (released > 0 || expiredClientIds > 0 || indexed > 0)
      log.info({ released, expiredClientIds, indexed }, 'messaging cleanup');
    return { released, expiredClientIds, indexed };
  };
