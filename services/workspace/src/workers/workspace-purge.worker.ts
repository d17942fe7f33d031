import { randomUUID } from 'node:crypto';
import type { AsyncClient } from '@wms/kit/grpc-client';
import type { Job } from '@wms/kit/queues';
import type { ObjectStorage } from '@wms/kit/storage';
import type { MessagingServiceDefinition } from '@wms/protos/gen/wms/messaging/v1/MessagingService';
import type { WorkspacePurgeJob } from '../queues.ts';
import type { AvatarStore } from '../store/avatar.store.ts';
import type { WorkspaceStore } from '../store/workspace.store.ts';

/** A service that holds workspace data and purges it a batch per call (messaging and asset share the RPC's shape). */
export type PurgingClient = Pick<AsyncClient<MessagingServiceDefinition>, 'PurgeWorkspace'>;

/**
 * Purges a deleted workspace (contract: "its data is purged in the background by each service"): the messaging
 * service's channels and messages, the asset service's attachments with their bytes, then avatar files and the rows
 * here. Each step is safe to run again, so a failed job retries from wherever it stopped.
 */
export function workspacePurgeProcessor(deps: {
  storage: ObjectStorage;
  avatars: AvatarStore;
  workspaces: WorkspaceStore;
  holders: PurgingClient[];
}) {
  return async (job: Job<WorkspacePurgeJob>): Promise<void> => {
    const { workspaceId } = job.data;
    if (!(await deps.workspaces.isDeleted(workspaceId))) return;
    const ctx = { requestId: randomUUID() };
    for (const holder of deps.holders) {
      while (!(await holder.PurgeWorkspace({ workspace_id: workspaceId }, ctx)).done);
    }
    await deps.storage.delete(await deps.avatars.keysOfWorkspace(workspaceId));
    await deps.workspaces.purge(workspaceId);
  };
}
