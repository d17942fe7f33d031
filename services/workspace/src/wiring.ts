import type { Knex } from '@wms/kit/db';
import type { AsyncClient } from '@wms/kit/grpc-client';
import type { Queue, QueueEvents } from '@wms/kit/queues';
import type { Redis } from '@wms/kit/redis';
import type { ObjectStorage } from '@wms/kit/storage';
import type { IdentityServiceDefinition } from '@wms/protos/gen/wms/identity/v1/IdentityService';
import { AvatarService } from './avatar.service.ts';
import type { AvatarResizeJob, AvatarResizeResult, WorkspacePurgeJob } from './queues.ts';
import { ActorStore } from './store/actor.store.ts';
import { AvatarStore } from './store/avatar.store.ts';
import { MemberStore } from './store/member.store.ts';
import { MembershipCache } from './store/membership-cache.ts';
import { WorkspaceStore } from './store/workspace.store.ts';
import { WorkspaceService } from './workspace.service.ts';

export interface WorkspaceConnections {
  db: Knex;
  redis: Redis;
  storage: ObjectStorage;
  identity: Pick<AsyncClient<IdentityServiceDefinition>, 'GetUsersByIds' | 'FindUserByEmail'>;
  resizeQueue: Queue<AvatarResizeJob, AvatarResizeResult>;
  resizeEvents: QueueEvents;
  purgeQueue: Queue<WorkspacePurgeJob>;
}

/** Builds the workspace and avatar services from their connections (shared by main.ts and the integration tests). */
export function buildWorkspaceServices(c: WorkspaceConnections): { workspaces: WorkspaceService; avatars: AvatarService } {
  const workspaceStore = new WorkspaceStore(c.db);
  const actors = new ActorStore(c.db);
  const workspaces = new WorkspaceService({
    db: c.db,
    workspaces: workspaceStore,
    members: new MemberStore(c.db),
    actors,
    cache: new MembershipCache(c.redis),
    identity: c.identity,
    // The purge calls other services: it keeps trying through their restarts (about an hour in all).
    schedulePurge: async (workspaceId) =>
      void (await c.purgeQueue.add('purge', { workspaceId }, { jobId: `purge-${workspaceId}`, attempts: 12, backoff: { type: 'exponential', delay: 2000 } })),
  });
  const avatars = new AvatarService({
    db: c.db,
    workspaceService: workspaces,
    workspaces: workspaceStore,
    actors,
    avatars: new AvatarStore(c.db),
    storage: c.storage,
    resizeQueue: c.resizeQueue,
    resizeEvents: c.resizeEvents,
  });
  return { workspaces, avatars };
}
