import { createQueue, createQueueEvents, producerConnection, workerConnection } from '@wms/kit/queues';
import type { Logger } from '@wms/kit/logger';
import type { Redis, RedisTarget } from '@wms/kit/redis';
import type { AvatarResizer } from './avatar.service.ts';
import type { WorkspacePurges } from './workspace.service.ts';

/** Queues of the workspace service, shared by the producer (server role) and the consumer (worker role). */
export const queueNames = {
  avatarResize: 'avatar-resize',
  workspacePurge: 'workspace-purge',
} as const;

/** Render the uploaded image at `sourceKey` into the 256 × 256 WebP at `targetKey`. */
export interface AvatarResizeJob {
  avatarId: string;
  sourceKey: string;
  targetKey: string;
}

export interface AvatarResizeResult {
  sizeBytes: number;
}

/** Purge a deleted workspace: its messaging data and assets (asked of those services), members, actors and avatar files. */
export interface WorkspacePurgeJob {
  workspaceId: string;
}

/** The server role's side of the queues: the producers behind the services' `AvatarResizer` and `WorkspacePurges`. */
export interface WorkspaceProducers {
  resizer: AvatarResizer;
  purges: WorkspacePurges;
  /** The producers' Redis connection, for the health check. */
  connection: Redis;
  close(): Promise<void>;
}

/** Opens the producers on the deployment's Redis; `resizeTimeoutMs` is how long a PUT waits for the worker before answering 503. */
export async function openWorkspaceProducers(o: {
  redis: RedisTarget;
  prefix: string;
  log: Logger;
  resizeTimeoutMs?: number;
}): Promise<WorkspaceProducers> {
  const base = { prefix: o.prefix, log: o.log };
  const producer = producerConnection(o.redis, o.log);
  const listener = workerConnection(o.redis, o.log);
  const resizeQueue = createQueue<AvatarResizeJob, AvatarResizeResult>(queueNames.avatarResize, {
    ...base,
    connection: producer,
  });
  const purgeQueue = createQueue<WorkspacePurgeJob>(queueNames.workspacePurge, { ...base, connection: producer });
  const resizeEvents = createQueueEvents(queueNames.avatarResize, { ...base, connection: listener });
  await Promise.all([resizeEvents.waitUntilReady(), resizeQueue.waitUntilReady(), purgeQueue.waitUntilReady()]);
  const resizeTimeoutMs = o.resizeTimeoutMs ?? 30_000;
  return {
    resizer: {
      async resize(job) {
        const added = await resizeQueue.add('render', job, { jobId: job.avatarId });
        await added.waitUntilFinished(resizeEvents, resizeTimeoutMs);
      },
    },
    purges: {
      // The purge calls other services: it keeps trying through their restarts (about an hour in all).
      async schedule(workspaceId) {
        await purgeQueue.add(
          'purge',
          { workspaceId },
          { jobId: `purge-${workspaceId}`, attempts: 12, backoff: { type: 'exponential', delay: 2000 } },
        );
      },
    },
    connection: producer,
    async close() {
      await Promise.all([resizeEvents.close(), resizeQueue.close(), purgeQueue.close()]);
      await Promise.all([producer.quit(), listener.quit()]);
    },
  };
}
