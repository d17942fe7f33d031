import type { Job } from '@wms/kit/queues';
import type { ObjectStorage } from '@wms/kit/storage';
import type { WorkspacePurgeJob } from '../queues.ts';
import type { AvatarStore } from '../store/avatar.store.ts';
import type { WorkspaceStore } from '../store/workspace.store.ts';

/** Purges a deleted workspace: avatar files first (their keys live in the rows), then the rows. Safe to run twice. */
export function workspacePurgeProcessor(deps: { storage: ObjectStorage; avatars: AvatarStore; workspaces: WorkspaceStore }) {
  return async (job: Job<WorkspacePurgeJob>): Promise<void> => {
    await deps.storage.delete(await deps.avatars.keysOfWorkspace(job.data.workspaceId));
    await deps.workspaces.purge(job.data.workspaceId);
  };
}
