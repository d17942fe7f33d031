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
