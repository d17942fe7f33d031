import type { TestProject } from 'vitest/node';
import { startRedisCluster } from '@wms/local-cluster/redis-cluster';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The nodes of the Redis Cluster the `redis-cluster` projects run against (testkit's `testRedis`). */
    redisClusterNodes: string[];
  }
}

/** Three masters on loopback: every command across slots is refused (CROSSSLOT), and most are redirected (MOVED). */
export const MASTERS = 3;

/** The `redis-cluster` project: the services' and gateway's integration tests, their Redis a cluster of its own. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const cluster = await startRedisCluster(MASTERS, () => {});
  project.provide('redisClusterNodes', cluster.nodes);
  return () => cluster.stop();
}
