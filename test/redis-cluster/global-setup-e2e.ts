import type { TestProject } from 'vitest/node';
import { startRedisCluster } from '@wms/local-cluster/redis-cluster';
import { provideCluster } from '../e2e/global-setup.ts';
import { MASTERS } from './global-setup.ts';

/** The `redis-cluster-e2e` project: the e2e suite's core scenarios on a cluster whose Redis is a Redis Cluster. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const redis = await startRedisCluster(MASTERS, () => {});
  project.provide('redisClusterNodes', redis.nodes);
  try {
    const stopCluster = await provideCluster(project, { redisClusterNodes: redis.nodes });
    return async () => {
      await stopCluster();
      await redis.stop();
    };
  } catch (err) {
    await redis.stop();
    throw err;
  }
}
