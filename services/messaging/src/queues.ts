/** The messaging service's queue: its worker finishes what requests leave behind. */
export const queueNames = { cleanup: 'messaging-cleanup' } as const;

/** The one job of the cleanup queue, repeated by a job scheduler every `CLEANUP_SWEEP_MS` (and addable by hand, e.g. by tests). */
export const SWEEP_JOB = 'sweep';
/** A delete releases its assets itself right after committing; the worker takes over for those still unreleased after this. */
export const RELEASE_GRACE_MS = 60 * 1000;
