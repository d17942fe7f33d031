/**
 * The integration test files that use Redis (testkit's `testRedis`), which the `redis-cluster` project runs again on a
 * Redis Cluster. The others would only repeat themselves; `redis-cluster.test.ts` keeps this list complete.
 */
export const REDIS_INTEGRATION_FILES = [
  'gateway/test/auth.int.test.ts',
  'services/identity/test/identity.int.test.ts',
  'services/kit/test/metrics.int.test.ts',
  'services/kit/test/queues.int.test.ts',
  'services/realtime/test/auth.int.test.ts',
  'services/realtime/test/event-follower.int.test.ts',
  'services/realtime/test/events.int.test.ts',
  'services/workspace/test/invitations.int.test.ts',
  'services/workspace/test/store.int.test.ts',
];

/**
 * Files that use Redis but do not run on the cluster: Soketi's own Redis adapter is not pointed at one here; presence's
 * 1,000 clients take minutes on a busy machine, and its Redis use (webhooks' occupancy jobs) is on the cluster in the
 * redis-cluster-e2e project's realtime scenarios (a member online, then offline).
 */
export const NOT_ON_REDIS_CLUSTER = [
  'services/realtime/test/soketi-nodes.int.test.ts',
  'services/realtime/test/presence.int.test.ts',
];
