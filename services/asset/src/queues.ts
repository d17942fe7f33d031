/** The asset service's queue: its worker removes reservations no message attached within 24 hours. */
export const queueNames = { cleanup: 'asset-cleanup' } as const;

/** The one job of the cleanup queue, repeated by a job scheduler every `CLEANUP_SWEEP_MS` (and addable by hand, e.g. by tests). */
export const SWEEP_JOB = 'sweep-unattached';
